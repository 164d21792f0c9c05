import { cancelRunRoute } from "@/lib/http/run-routes";

/** Cancels a queued, running or waiting run. */
export const POST = cancelRunRoute;
