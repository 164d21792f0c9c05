import { getAdminContext } from "@/lib/db/context";
import { memberRoleSchema, removeMember, setMemberRole } from "@/lib/db/member-repository";
import { mapError, parseBody } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Route params (a promise since Next 15). */
interface MemberRouteContext {
  params: Promise<{ userId: string }>;
}

/** Changes a member's role; it applies from their next request. */
export async function PATCH(request: Request, context: MemberRouteContext): Promise<Response> {
  const { userId } = await context.params;
  const parsed = await parseBody(request, memberRoleSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const actor = await getAdminContext("change roles");
    return Response.json({ member: await setMemberRole(actor, userId, parsed.data.role) });
  } catch (error) {
    return mapError(error);
  }
}

/** Removes a member from the workspace; their sessions stop working on the next request. */
export async function DELETE(_request: Request, context: MemberRouteContext): Promise<Response> {
  const { userId } = await context.params;
  try {
    const actor = await getAdminContext("remove members");
    await removeMember(actor, userId);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
