import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { memberRoleSchema, removeMember, setMemberRole } from "@/lib/services/members";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ userId: z.string().min(1).max(200) });

/** Changes a member's role; it applies from their next request. */
export const PATCH = route(
  { auth: "session", params: pathSchema, body: memberRoleSchema },
  async ({ principal, params, body }) => ({ member: await setMemberRole(principal, params.userId, body.role) }),
);

/** Removes a member from the workspace; their sessions stop working on the next request. */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await removeMember(principal, params.userId);
  return noContent();
});
