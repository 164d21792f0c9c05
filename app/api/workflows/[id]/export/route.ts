import { route } from "@/lib/http/route";
import { exportWorkflow } from "@/lib/services/interop";
import { workflowPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/**
 * The workflow's Trellis export file (draft plus tool, credential and provider references by name,
 * never a secret), answered as a download.
 */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) => {
  const { name, file } = await exportWorkflow(principal, params.id);
  const fileName = `${name.replace(/[^a-zA-Z0-9-_]+/g, "-").toLowerCase() || "workflow"}.json`;
  return new Response(JSON.stringify(file, null, 2), {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${fileName}"` },
  });
});
