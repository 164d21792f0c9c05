import { getAdminContext } from "@/lib/db/context";
import { addMember, listMembers, memberInputSchema } from "@/lib/db/member-repository";
import { mapError, parseBody } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The workspace's members and roles (owners and admins). */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getAdminContext("see the members");
    return Response.json({ members: await listMembers(workspaceId) });
  } catch (error) {
    return mapError(error);
  }
}

/** Adds a member: an existing account joins, or a new one is created with the initial password. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, memberInputSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const actor = await getAdminContext("add members");
    return Response.json({ member: await addMember(actor, parsed.data) }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
