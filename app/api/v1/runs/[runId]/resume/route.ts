import { resumeRunRoute } from "@/lib/http/run-routes";

/** Answers the human-input node an API run waits on; the run continues. */
export const POST = resumeRunRoute;
