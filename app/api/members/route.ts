import { json, route } from "@/lib/http/route";
import { createInvitation } from "@/lib/services/invitations";
import { listMembers, memberInviteSchema } from "@/lib/services/members";

export const dynamic = "force-dynamic";

/** The workspace's members and roles (owners and admins). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ members: await listMembers(principal) }));

/**
 * Invites someone by e-mail: an invitation link only that account may accept. Nobody is added
 * without consent, and the answer is the same whether or not the e-mail has an account.
 */
export const POST = route({ auth: "session", body: memberInviteSchema }, async ({ principal, body }) =>
  json(await createInvitation(principal, body), 201),
);
