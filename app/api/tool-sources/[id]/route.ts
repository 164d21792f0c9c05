import { getAdminContext } from "@/lib/db/context";
import { getToolSource } from "@/lib/db/tool-source-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import {
  listToolSourceReports,
  removeToolSource,
  saveReadOnlyTools,
  saveToolSource,
} from "@/lib/services/tool-source-service";
import { readOnlyToolsBodySchema, toolSourceBodySchema } from "../schema";

export const dynamic = "force-dynamic";

/** Route params (a promise since Next 15). */
interface ToolSourceRouteContext {
  params: Promise<{ id: string }>;
}

/** One source with its tools and health. Other workspaces' ids answer 404 like unknown ones. */
export async function GET(_request: Request, context: ToolSourceRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    const [report] = await listToolSourceReports(workspaceId, [await getToolSource(workspaceId, id)]);
    return Response.json({ source: report });
  } catch (error) {
    return mapError(error);
  }
}

/** Replaces a source's settings; write-only secret fields left out keep their stored values. */
export async function PUT(request: Request, context: ToolSourceRouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, toolSourceBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ source: await saveToolSource(workspaceId, parsed.data, id) });
  } catch (error) {
    return mapError(error);
  }
}

/** Sets which tools of the source are trusted as read-only. */
export async function PATCH(request: Request, context: ToolSourceRouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, readOnlyToolsBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ source: await saveReadOnlyTools(workspaceId, id, parsed.data.readOnlyTools) });
  } catch (error) {
    return mapError(error);
  }
}

/** Deletes a source, its secrets and its MCP connection. */
export async function DELETE(_request: Request, context: ToolSourceRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    await removeToolSource(workspaceId, id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
