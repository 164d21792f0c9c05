import { ToolSourcesManager } from "@/components/settings/tool-sources-manager";
import { getAdminContext } from "@/lib/db/context";
import { listToolSources } from "@/lib/db/tool-source-repository";
import { isStdioAllowed } from "@/lib/services/mcp-connections";
import { listToolSourceReports } from "@/lib/services/tool-source-service";

export const dynamic = "force-dynamic";

/** Tool sources of the workspace, read on the server (MCP servers are connected or their last listing shown). */
export default async function ToolSettingsPage() {
  const { workspaceId } = await getAdminContext();
  const reports = await listToolSourceReports(workspaceId, await listToolSources(workspaceId));
  return <ToolSourcesManager reports={reports} stdioAllowed={isStdioAllowed()} />;
}
