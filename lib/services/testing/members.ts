import type { MemberView } from "../../contracts/settings-views";
import { getMember } from "../../db/member-repository";
import { database } from "../../db/prisma-client";
import { createAccount } from "../account";

/**
 * Test fixture: a member of a workspace with a role, as if they had accepted an invitation (the
 * product adds members only through invitations). Creates the account (through `createAccount`)
 * unless the e-mail has one.
 */
export async function addTestMember(
  workspaceId: string,
  input: { email: string; role: string; name?: string; password?: string },
): Promise<MemberView> {
  const email = input.email.trim().toLowerCase();
  const existing = await database().user.findUnique({ where: { email }, select: { id: true } });
  const userId =
    existing?.id ??
    (await createAccount({ email, name: input.name || email, password: input.password ?? "test-password" })).id;
  await database().membership.create({ data: { workspaceId, userId, role: input.role } });
  return getMember(workspaceId, userId);
}
