import { MembersManager } from "@/components/settings/members-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listMembers } from "@/lib/services/members";

export const dynamic = "force-dynamic";

/** Members of the workspace and their roles (owners and admins). */
export default async function MemberSettingsPage() {
  const principal = await requirePagePrincipal();
  return <MembersManager members={await listMembers(principal)} currentUserId={principal.userId} />;
}
