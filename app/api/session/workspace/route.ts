import { route } from "@/lib/http/route";
import { activeWorkspaceSchema, switchWorkspace } from "@/lib/services/sessions";

/**
 * Switches the session's current workspace (body `{ workspaceId }`); answers
 * `{ workspaceId, role }`, or 404 `workspace_not_found` when the user is not a member there.
 */
export const PUT = route({ auth: "session", body: activeWorkspaceSchema }, async ({ principal, body }) =>
  switchWorkspace(principal, body),
);
