import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { sessionTokenOf } from "@/lib/services/access/session";
import { changePassword, passwordChangeSchema } from "@/lib/services/account";
import { sessionCookie } from "@/lib/services/session-token";

/**
 * Changes the signed-in user's password (current one required; attempts are rate limited like
 * sign-in). Every session of the user ends; this browser goes on in a fresh session (new cookie).
 */
export const POST = route({ auth: "session", body: passwordChangeSchema }, async ({ request, principal, body }) => {
  const { token } = await changePassword(principal, body, {
    ipAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
    sessionValue: sessionTokenOf(request),
  });
  const response = Response.json({ ok: true });
  response.headers.append("set-cookie", sessionCookie(request, token));
  return response;
});
