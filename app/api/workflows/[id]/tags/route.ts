import { workflowTagSetSchema } from "@/lib/contracts/workflow-tag";
import { route } from "@/lib/http/route";
import { tagsOfWorkflow, tagWorkflow } from "@/lib/services/workflow-tags";
import { workflowPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** Replaces the workflow's tags with `tagIds`; an id not in the workspace is 404 naming `tagIds.<n>`. */
export const PUT = route(
  { auth: "session", params: workflowPathSchema, body: workflowTagSetSchema },
  async ({ principal, params, body }) => ({ tags: await tagWorkflow(principal, params.id, body.tagIds) }),
);

/** The workflow's tags, by name. */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) => ({
  tags: await tagsOfWorkflow(principal, params.id),
}));
