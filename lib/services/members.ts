import "server-only";
import { z } from "zod";
import {
  addMember as addMemberRow,
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

/** A new member as the members page submits it. */
export const memberInputSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(200),
  name: z.string().trim().max(100).default(""),
  role: z.enum(WORKSPACE_ROLES),
  /** Initial password for a new user; ignored when the e-mail already has an account. */
  password: z.string().max(200).default(""),
});

/** A role change. */
export const memberRoleSchema = z.object({ role: z.enum(WORKSPACE_ROLES) });

function ownerOnly(principal: Principal, targetRole: WorkspaceRole | undefined, nextRole?: WorkspaceRole): void {
  if (!mayTouchOwner(principal, targetRole, nextRole)) {
    throw new MemberChangeRefusedError(
      targetRole === undefined
        ? "Only an owner can add another owner."
        : "Only an owner can change or remove an owner, or make someone an owner.",
    );
  }
}

/** The workspace's members, oldest first (owners and admins). */
export async function listMembers(principal: Principal | null): Promise<MemberView[]> {
  authorize(principal, "members.manage");
  return listMemberRows(principal.workspaceId);
}

/** Adds a member: an existing account joins, or a new one is created with the initial password. */
export async function addMember(principal: Principal | null, input: z.output<typeof memberInputSchema>) {
  authorize(principal, "members.manage");
  ownerOnly(principal, undefined, input.role);
  return addMemberRow(principal.workspaceId, input);
}

/** Changes a member's role; it applies from their next request. */
export async function setMemberRole(principal: Principal | null, userId: string, role: WorkspaceRole) {
  authorize(principal, "members.manage");
  const target = await getMember(principal.workspaceId, userId);
  ownerOnly(principal, toWorkspaceRole(target.role), role);
  return setMemberRoleRow(principal.workspaceId, userId, role);
}

/** Removes a member; their sessions stop working in this workspace on the next request. */
export async function removeMember(principal: Principal | null, userId: string): Promise<void> {
  authorize(principal, "members.manage");
  const target = await getMember(principal.workspaceId, userId);
  ownerOnly(principal, toWorkspaceRole(target.role));
  await removeMemberRow(principal.workspaceId, userId);
  await endSessionsInWorkspace(userId, principal.workspaceId);
}
