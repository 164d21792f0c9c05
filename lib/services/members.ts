import "server-only";
import { z } from "zod";
import {
  getMember,
  listMembers as listMemberRows,
  MemberChangeRefusedError,
  type MemberView,
  removeMember as removeMemberRow,
  setMemberRole as setMemberRoleRow,
} from "../db/member-repository";
import { authorize, mayTouchOwner } from "./access/policy";
import type { Principal } from "./access/principal";
import { toWorkspaceRole, WORKSPACE_ROLES, type WorkspaceRole } from "./access/roles";
import { endSessionsInWorkspace } from "./access/session";
import { recordAudit } from "./audit-log";
import { invitationInputSchema } from "./invitations";

/**
 * Inviting someone by e-mail from the members page (`POST /api/members`): an invitation that only
 * that account may accept. Nobody becomes a member without accepting (consent).
 */
export const memberInviteSchema = invitationInputSchema.extend({
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(200),
});

/** A role change. */
export const memberRoleSchema = z.object({ role: z.enum(WORKSPACE_ROLES) });

function ownerOnly(principal: Principal, targetRole: WorkspaceRole | undefined, nextRole?: WorkspaceRole): void {
  if (!mayTouchOwner(principal, targetRole, nextRole)) {
    throw new MemberChangeRefusedError(
      targetRole === undefined
        ? "Only an owner can invite another owner."
        : "Only an owner can change or remove an owner, or make someone an owner.",
    );
  }
}

/** The workspace's members, oldest first (owners and admins). */
export async function listMembers(principal: Principal | null): Promise<MemberView[]> {
  authorize(principal, "members.manage");
  return listMemberRows(principal.workspaceId);
}

/** Changes a member's role; it applies from their next request. */
export async function setMemberRole(principal: Principal | null, userId: string, role: WorkspaceRole) {
  authorize(principal, "members.manage");
  const target = await getMember(principal.workspaceId, userId);
  ownerOnly(principal, toWorkspaceRole(target.role), role);
  const changed = await setMemberRoleRow(principal.workspaceId, userId, role);
  if (target.role !== role) {
    await recordAudit(principal, {
      action: "member.role_changed",
      target: { type: "user", id: userId, label: target.email },
      detail: { from: target.role, to: role },
    });
  }
  return changed;
}

/** Removes a member; their sessions stop working in this workspace on the next request. */
export async function removeMember(principal: Principal | null, userId: string): Promise<void> {
  authorize(principal, "members.manage");
  const target = await getMember(principal.workspaceId, userId);
  ownerOnly(principal, toWorkspaceRole(target.role));
  await removeMemberRow(principal.workspaceId, userId);
  await endSessionsInWorkspace(userId, principal.workspaceId);
  await recordAudit(principal, {
    action: "member.removed",
    target: { type: "user", id: userId, label: target.email },
    detail: { role: target.role },
  });
}
