import { workflowSlugBodySchema } from "@/lib/contracts/workflow-slug";
import { route } from "@/lib/http/route";
import { changeWorkflowSlug } from "@/lib/services/workflow-slug";
import { workflowPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** Sets the workflow's slug (its published endpoint's name); 409 naming `slug` when it is taken. */
export const PUT = route(
  { auth: "session", params: workflowPathSchema, body: workflowSlugBodySchema },
  async ({ principal, params, body }) => changeWorkflowSlug(principal, params.id, body.slug),
);
