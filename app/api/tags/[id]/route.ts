import { z } from "zod";
import { workflowTagUpdateSchema } from "@/lib/contracts/workflow-tag";
import { noContent, route } from "@/lib/http/route";
import { changeTag, removeTag } from "@/lib/services/workflow-tags";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ id: z.string().min(1) });

/** Renames or recolours a tag (editors and up). */
export const PATCH = route(
  { auth: "session", params: pathSchema, body: workflowTagUpdateSchema },
  async ({ principal, params, body }) => ({ tag: await changeTag(principal, params.id, body) }),
);

/** Deletes a tag and removes it from every workflow (editors and up). */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await removeTag(principal, params.id);
  return noContent();
});
