import { getRunDetailRoute } from "@/lib/http/run-routes";

/** A run with every node attempt, for the inspector. */
export const GET = getRunDetailRoute;
