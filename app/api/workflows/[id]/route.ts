import { json, noContent, route } from "@/lib/http/route";
import { deleteWorkflow, loadWorkflow, publishWorkflow, saveDraft } from "@/lib/services/workflows";
import { updateWorkflowBodySchema, workflowActionBodySchema, workflowPathSchema } from "./schema";

/** Loads a workflow with its draft and revision. */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) => ({
  workflow: await loadWorkflow(principal, params.id),
}));

/** Saves the draft when `expectedRevision` is current; otherwise 409 with the server's revision. */
export const PUT = route(
  { auth: "session", params: workflowPathSchema, body: updateWorkflowBodySchema },
  async ({ principal, params, body }) => saveDraft(principal, params.id, body),
);

/** Runs an action on the workflow (publish). */
export const POST = route(
  { auth: "session", params: workflowPathSchema, body: workflowActionBodySchema },
  async ({ principal, params, body }) => {
    const published = await publishWorkflow(principal, params.id, body.note);
    return json({ version: published.version }, 201);
  },
);

/** Deletes the workflow with its versions and runs. */
export const DELETE = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) => {
  await deleteWorkflow(principal, params.id);
  return noContent();
});
