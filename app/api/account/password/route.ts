import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { changePassword, passwordChangeSchema } from "@/lib/services/account";

/**
 * Changes the signed-in user's password (current one required; attempts are rate limited like
 * sign-in). Every other session of the user ends; this one goes on with its cookie.
 */
export const POST = route({ auth: "session", body: passwordChangeSchema }, async ({ request, principal, body }) => {
  const { endedSessions } = await changePassword(principal, body, clientAddress(request));
  return { ok: true, endedSessions };
});
