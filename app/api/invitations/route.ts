import { json, route } from "@/lib/http/route";
import { createInvitation, invitationInputSchema, listInvitations } from "@/lib/services/invitations";

export const dynamic = "force-dynamic";

/** The current workspace's pending invitations (owners and admins). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({
  invitations: await listInvitations(principal),
}));

/** Creates an invitation link; the answer carries its token once (`path`: `/invite/<token>`). */
export const POST = route({ auth: "session", body: invitationInputSchema }, async ({ principal, body }) =>
  json(await createInvitation(principal, body), 201),
);
