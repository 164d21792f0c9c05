import { route } from "@/lib/http/route";
import { listWorkflowVersions } from "@/lib/services/workflow-versions";
import { workflowPathSchema } from "../schema";

/** The workflow's published versions (notes, who published), newest first, and the served one. */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) =>
  listWorkflowVersions(principal, params.id),
);
