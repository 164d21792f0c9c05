/** Workspace roles, most powerful first. Stored as `Membership.role`. */
export const WORKSPACE_ROLES = ["owner", "admin", "editor", "viewer"] as const;

/** One of {@link WORKSPACE_ROLES}. */
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** A stored role string as a known role; anything unknown counts as the least powerful. */
export function toWorkspaceRole(value: string): WorkspaceRole {
  return (WORKSPACE_ROLES as readonly string[]).includes(value) ? (value as WorkspaceRole) : "viewer";
}
