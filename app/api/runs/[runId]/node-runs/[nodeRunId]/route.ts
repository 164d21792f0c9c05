import { getNodeRunRoute } from "@/lib/http/run-routes";

/** One node attempt of a run, whole: what a large-value reference of the run detail points at. */
export const GET = getNodeRunRoute;
