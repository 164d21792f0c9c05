import { cancelRunRoute } from "@/lib/http/run-routes";

/** Cancels a queued, running or waiting API run; answers with the run as it ended. */
export const POST = cancelRunRoute;
