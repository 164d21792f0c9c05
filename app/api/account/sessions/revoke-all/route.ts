import { route } from "@/lib/http/route";
import { clearedSessionCookie } from "@/lib/services/session-token";
import { revokeAllSessions } from "@/lib/services/sessions";

/** "Sign out everywhere": ends every session of the signed-in user, this one included. */
export const POST = route({ auth: "session" }, async ({ principal }) => {
  const { ended } = await revokeAllSessions(principal);
  const response = Response.json({ ok: true, ended });
  response.headers.append("set-cookie", clearedSessionCookie());
  return response;
});
