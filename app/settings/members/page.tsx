import { MembersManager } from "@/components/settings/members-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listInvitations } from "@/lib/services/invitations";
import { listMembers } from "@/lib/services/members";

export const dynamic = "force-dynamic";

/** Members of the workspace and their roles, and pending invitations (owners and admins). */
export default async function MemberSettingsPage() {
  const principal = await requirePagePrincipal();
  const [members, invitations] = await Promise.all([listMembers(principal), listInvitations(principal)]);
  return <MembersManager members={members} invitations={invitations} currentUserId={principal.userId} />;
}
