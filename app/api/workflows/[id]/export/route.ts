import { requireWorkflowAccess } from "@/lib/db/workflow-repository";
import { mapError } from "@/lib/http/respond";
import { buildWorkflowFile } from "@/lib/interop/trellis/workflow-file";
import { listWorkspaceTools } from "@/lib/server/workspace-tools";

export const dynamic = "force-dynamic";

/**
 * The workflow's Trellis export file: the draft plus the names of the tools (with the tool source
 * each comes from), HTTP credentials and model providers it uses. Never a secret: credentials and
 * providers travel by name only. Answered as a download.
 */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workflow } = await requireWorkflowAccess(id);
    const { tools } = await listWorkspaceTools(workflow.workspaceId);
    const toolSources = Object.fromEntries(
      tools.filter((tool) => tool.source.kind !== "built-in").map((tool) => [tool.name, tool.source.label]),
    );
    const file = buildWorkflowFile(workflow.name, workflow.description, workflow.draft, toolSources);
    const fileName = `${workflow.name.replace(/[^a-zA-Z0-9-_]+/g, "-").toLowerCase() || "workflow"}.json`;
    return new Response(JSON.stringify(file, null, 2), {
      headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${fileName}"` },
    });
  } catch (error) {
    return mapError(error);
  }
}
