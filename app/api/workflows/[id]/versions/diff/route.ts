import { route } from "@/lib/http/route";
import { diffWorkflowVersions } from "@/lib/services/workflow-versions";
import { workflowPathSchema } from "../../schema";
import { diffQuerySchema } from "../schema";

/** What changed from one version (or the draft) to another: nodes, edges and config fields. */
export const GET = route(
  { auth: "session", params: workflowPathSchema, query: diffQuerySchema },
  async ({ principal, params, query }) => diffWorkflowVersions(principal, params.id, query.from, query.to),
);
