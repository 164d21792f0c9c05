import { getAdminContext } from "@/lib/db/context";
import { mapError } from "@/lib/http/respond";
import { refreshToolSource } from "@/lib/services/tool-source-service";

export const dynamic = "force-dynamic";

/** Lists an MCP server's tools again (reconnecting when needed) and answers with them and the server's health. */
export async function POST(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json(await refreshToolSource(workspaceId, id));
  } catch (error) {
    return mapError(error);
  }
}
