import { workflowTagInputSchema } from "@/lib/contracts/workflow-tag";
import { json, route } from "@/lib/http/route";
import { addTag, listTags } from "@/lib/services/workflow-tags";

export const dynamic = "force-dynamic";

/** The workspace's workflow tags, with how many workflows carry each (any member). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ tags: await listTags(principal) }));

/** Adds a tag (editors and up); 409 `workflow_tag_name_taken` naming `name`. */
export const POST = route({ auth: "session", body: workflowTagInputSchema }, async ({ principal, body }) =>
  json({ tag: await addTag(principal, body) }, 201),
);
