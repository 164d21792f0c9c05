import { runEventsRoute } from "@/lib/http/run-routes";

export const dynamic = "force-dynamic";

/** SSE re-attach for API clients: replays persisted events after Last-Event-ID, then live ones until run-end. */
export const GET = runEventsRoute;
