import { mapError } from "@/lib/http/respond";
import { builtInTools } from "@/lib/server/built-in-tools";
import { isDemoMode } from "@/lib/server/demo-mode";
import { createToolRegistry, listToolSummaries } from "@/lib/tools/registry";

export const dynamic = "force-dynamic";

/** Tools for the tool picker; in demo mode the web-API tools are answered by the local stub. */
export async function GET(): Promise<Response> {
  try {
    return Response.json({
      tools: listToolSummaries(createToolRegistry(builtInTools())),
      demoMode: isDemoMode(),
      demoNotice: isDemoMode()
        ? "Demo mode: get_current_weather, convert_currency, search_tickets and search_meeting_notes call the local demo stub, not the real APIs."
        : null,
    });
  } catch (error) {
    return mapError(error);
  }
}
