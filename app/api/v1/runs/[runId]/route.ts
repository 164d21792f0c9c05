import { getPublicRunRoute } from "@/lib/http/run-routes";

export const dynamic = "force-dynamic";

/** A run started through the API: status, outputs, usage, and the question while it waits for input. */
export const GET = getPublicRunRoute;
