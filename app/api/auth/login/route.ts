import { passwordStamp, verifyPassword } from "@/lib/db/passwords";
import { database } from "@/lib/db/prisma-client";
import { secretKey } from "@/lib/db/secret-box";
import { clientAddress, limitSignInAttempts } from "@/lib/http/rate-limits";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { issueSessionToken, sessionCookie } from "@/lib/services/session-token";
import { loginBodySchema } from "./schema";

/** Checks e-mail and password and sets the session cookie. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, loginBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    await limitSignInAttempts(clientAddress(request), parsed.data.email);
    const user = await database().user.findUnique({ where: { email: parsed.data.email } });
    // The same answer for an unknown e-mail and a wrong password: no account enumeration.
    if (!user || !verifyPassword(parsed.data.password, user.passwordHash)) {
      return errorResponse(401, "invalid_credentials", "The e-mail or password is wrong.");
    }
    const response = Response.json({ ok: true, user: { id: user.id, email: user.email, name: user.name } });
    const token = issueSessionToken(user.id, passwordStamp(user.passwordHash), secretKey());
    response.headers.append("set-cookie", sessionCookie(request, token));
    return response;
  } catch (error) {
    return mapError(error);
  }
}
