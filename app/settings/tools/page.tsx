import { ToolSourcesManager } from "@/components/settings/tool-sources-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { isStdioAllowed } from "@/lib/services/mcp-connections";
import { listToolSources } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** Tool sources of the workspace, read on the server (MCP servers are connected or their last listing shown). */
export default async function ToolSettingsPage() {
  const reports = await listToolSources(await requirePagePrincipal());
  return <ToolSourcesManager reports={reports} stdioAllowed={isStdioAllowed()} />;
}
