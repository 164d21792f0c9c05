import { getAdminContext } from "@/lib/db/context";
import { mapError, parseBody } from "@/lib/http/respond";
import { testToolSourceConnection } from "@/lib/services/tool-source-service";
import { testConnectionBodySchema } from "../schema";

export const dynamic = "force-dynamic";

/**
 * "Test connection": connects to the MCP server as submitted, lists its tools and closes. Always
 * answers within about 20 s, with `{ ok: true, tools }` or `{ ok: false, error }` (status 200:
 * the test ran; the server's failure is its result).
 */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, testConnectionBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json(await testToolSourceConnection(workspaceId, parsed.data));
  } catch (error) {
    return mapError(error);
  }
}
