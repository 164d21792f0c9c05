import { getRequestContext } from "@/lib/db/context";
import { mapError } from "@/lib/http/respond";
import { isDemoMode } from "@/lib/services/demo-mode";
import { listWorkspaceTools } from "@/lib/services/workspace-tools";

export const dynamic = "force-dynamic";

/**
 * Tools for the tool picker: built-ins plus the workspace's OpenAPI and MCP tools, each with its
 * source kind/label, trusted read-only flag and display-only annotations. `problems` lists
 * unreachable servers and name collisions; in demo mode the web-API tools use the local stub.
 */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getRequestContext();
    const { tools, problems } = await listWorkspaceTools(workspaceId);
    return Response.json({
      tools,
      problems,
      demoMode: isDemoMode(),
      demoNotice: isDemoMode()
        ? "Demo mode: get_current_weather, convert_currency, search_tickets and search_meeting_notes call the local demo stub, not the real APIs."
        : null,
    });
  } catch (error) {
    return mapError(error);
  }
}
