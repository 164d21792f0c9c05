import { MembersManager } from "@/components/settings/members-manager";
import { getAdminContext } from "@/lib/db/context";
import { listMembers } from "@/lib/db/member-repository";

export const dynamic = "force-dynamic";

/** Members of the workspace and their roles (owners and admins). */
export default async function MemberSettingsPage() {
  const { workspaceId, userId } = await getAdminContext("see the members");
  return <MembersManager members={await listMembers(workspaceId)} currentUserId={userId} />;
}
