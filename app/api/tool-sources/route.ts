import { getAdminContext } from "@/lib/db/context";
import { listToolSources } from "@/lib/db/tool-source-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { listToolSourceReports, saveToolSource } from "@/lib/services/tool-source-service";
import { toolSourceBodySchema } from "./schema";

export const dynamic = "force-dynamic";

/** The workspace's tool sources with their tools and health (secrets reduced to flags). */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ sources: await listToolSourceReports(workspaceId, await listToolSources(workspaceId)) });
  } catch (error) {
    return mapError(error);
  }
}

/** Adds an OpenAPI import or MCP server; an invalid document answers 400 naming the location. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, toolSourceBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ source: await saveToolSource(workspaceId, parsed.data) }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
