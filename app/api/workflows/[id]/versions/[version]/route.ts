import { route } from "@/lib/http/route";
import { getWorkflowVersion } from "@/lib/services/workflow-versions";
import { versionPathSchema } from "../schema";

/** One published version with its frozen document (the read-only view). */
export const GET = route({ auth: "session", params: versionPathSchema }, async ({ principal, params }) => ({
  version: await getWorkflowVersion(principal, params.id, params.version),
}));
