import { route } from "@/lib/http/route";
import { setServedVersion } from "@/lib/services/workflow-versions";
import { workflowPathSchema } from "../schema";
import { servedVersionBodySchema } from "../versions/schema";

/** Pins the version the published endpoint serves (`{version: 2}`), or serves the latest again (`{version: null}`). */
export const PUT = route(
  { auth: "session", params: workflowPathSchema, body: servedVersionBodySchema },
  async ({ principal, params, body }) => setServedVersion(principal, params.id, body.version),
);
