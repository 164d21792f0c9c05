import { json, route } from "@/lib/http/route";
import { addMember, listMembers, memberInputSchema } from "@/lib/services/members";

export const dynamic = "force-dynamic";

/** The workspace's members and roles (owners and admins). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ members: await listMembers(principal) }));

/** Adds a member: an existing account joins, or a new one is created with the initial password. */
export const POST = route({ auth: "session", body: memberInputSchema }, async ({ principal, body }) =>
  json({ member: await addMember(principal, body) }, 201),
);
