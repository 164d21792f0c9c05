import { getRequestContext } from "@/lib/db/context";
import { changePassword, passwordChangeSchema } from "@/lib/db/member-repository";
import { secretKey } from "@/lib/db/secret-box";
import { clientAddress, limitSignInAttempts } from "@/lib/http/rate-limits";
import { mapError, parseBody } from "@/lib/http/respond";
import { issueSessionToken, sessionCookie } from "@/lib/services/session-token";

/** Changes the signed-in user's password (current one required; attempts are rate limited like sign-in). */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, passwordChangeSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { userId } = await getRequestContext();
    await limitSignInAttempts(clientAddress(request), `password-change:${userId}`);
    const stamp = await changePassword(userId, parsed.data);
    // Every other session of this user ends; this one continues with a fresh cookie.
    const response = Response.json({ ok: true });
    response.headers.append("set-cookie", sessionCookie(request, issueSessionToken(userId, stamp, secretKey())));
    return response;
  } catch (error) {
    return mapError(error);
  }
}
