import "server-only";
import { z } from "zod";
import type { WorkspaceView } from "../contracts/workspace-views";
import {
  createWorkspaceWithOwner,
  listUserWorkspaces,
  renameWorkspace as renameWorkspaceRow,
  WorkspaceNotFoundError,
} from "../db/workspace-repository";
import { TrellisError } from "../workflow/errors";
import { authorize, roleMay } from "./access/policy";
import type { Principal, UserPrincipal } from "./access/principal";
import { recordAudit } from "./audit-log";

/** A workspace name: what creating and renaming accept. */
export const workspaceNameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter a workspace name")
    .max(80, "Use 80 characters or fewer")
    .refine((name) => !/\p{Cc}/u.test(name), "Control characters are not allowed"),
});

/** Only a signed-in person has workspaces of their own (API keys and the server act in one). */
function assertUser(principal: Principal): asserts principal is UserPrincipal {
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has workspaces.");
}

/**
 * Creates a workspace whose owner is the signed-in user. The session stays in its current
 * workspace; switching is the session's business (`PUT /api/session/workspace`).
 */
export async function createWorkspace(
  principal: Principal | null,
  input: z.output<typeof workspaceNameSchema>,
): Promise<WorkspaceView> {
  authorize(principal, "workspace.create");
  assertUser(principal);
  const workspace = await createWorkspaceWithOwner(input.name, principal.userId);
  await recordAudit(principal, {
    workspaceId: workspace.id,
    action: "workspace.created",
    target: { type: "workspace", id: workspace.id, label: workspace.name },
    detail: { slug: workspace.slug },
  });
  return { ...workspace, current: false, manageSettings: roleMay(workspace.role, "settings.manage") };
}

/** The workspaces the signed-in user belongs to, with their role, the current one marked. */
export async function listWorkspaces(principal: Principal | null): Promise<WorkspaceView[]> {
  authorize(principal, "account.manage");
  assertUser(principal);
  const rows = await listUserWorkspaces(principal.userId);
  return rows.map((row) => ({
    ...row,
    current: row.id === principal.workspaceId,
    manageSettings: roleMay(row.role, "settings.manage"),
  }));
}

/**
 * Renames a workspace (owners and admins). Only the current workspace: any other answers
 * `workspace_not_found`, as the principal's role there is not known to this session.
 */
export async function renameWorkspace(
  principal: Principal | null,
  workspaceId: string,
  input: z.output<typeof workspaceNameSchema>,
): Promise<{ id: string; name: string }> {
  authorize(principal, "workspace.rename", { workspaceId }, () => new WorkspaceNotFoundError(workspaceId));
  const { previousName } = await renameWorkspaceRow(workspaceId, input.name);
  if (previousName !== input.name) {
    await recordAudit(principal, {
      workspaceId,
      action: "workspace.renamed",
      target: { type: "workspace", id: workspaceId, label: input.name },
      detail: { from: previousName, to: input.name },
    });
  }
  return { id: workspaceId, name: input.name };
}
