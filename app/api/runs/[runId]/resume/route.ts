import { resumeRunRoute } from "@/lib/http/run-routes";

/** Answers a waiting human-input node; the run continues in the background. */
export const POST = resumeRunRoute;
