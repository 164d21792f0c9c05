import { sendJson } from "@/components/settings/settings-api";

/**
 * Makes a workspace the session's current one and reloads into it: every page's data (workflows,
 * runs, settings) is the current workspace's, so a full reload is the honest way to switch.
 */
export async function switchWorkspace(workspaceId: string): Promise<string | null> {
  const result = await sendJson("/api/session/workspace", "PUT", { workspaceId });
  if (!result.ok) return result.message;
  window.location.assign("/workflows");
  return null;
}
