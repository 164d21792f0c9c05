import { json, route } from "@/lib/http/route";
import { createWorkflow, listWorkflows } from "@/lib/services/workflows";
import { createWorkflowBodySchema } from "./schema";

/** Lists the workspace's workflows. */
export const GET = route({ auth: "session" }, async ({ principal }) => ({
  workflows: await listWorkflows(principal),
}));

/** Creates a workflow (empty, imported, or a duplicate of another). */
export const POST = route({ auth: "session", body: createWorkflowBodySchema }, async ({ principal, body }) =>
  json(await createWorkflow(principal, body), 201),
);
