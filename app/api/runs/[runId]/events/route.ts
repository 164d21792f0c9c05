import { runEventsRoute } from "@/lib/http/run-routes";

export const dynamic = "force-dynamic";

/** SSE: replays persisted events, then streams live ones until run-end. */
export const GET = runEventsRoute;
