import { route } from "@/lib/http/route";
import { isDemoMode } from "@/lib/services/demo-mode";
import { listTools } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/**
 * Tools for the tool picker: built-ins plus the workspace's OpenAPI and MCP tools, each with its
 * source kind/label, trusted read-only flag and display-only annotations. `problems` lists
 * unreachable servers and name collisions; in demo mode the web-API tools use the local stub.
 */
export const GET = route({ auth: "session" }, async ({ principal }) => {
  const { tools, problems } = await listTools(principal);
  return {
    tools,
    problems,
    demoMode: isDemoMode(),
    demoNotice: isDemoMode()
      ? "Demo mode: get_current_weather, convert_currency, search_tickets and search_meeting_notes call the local demo stub, not the real APIs."
      : null,
  };
});
