import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { signIn } from "@/lib/services/account";
import { sessionCookie } from "@/lib/services/session-token";
import { loginBodySchema } from "./schema";

/** Checks e-mail and password, starts a database session and sets its cookie. */
export const POST = route({ auth: "public", body: loginBodySchema }, async ({ request, body }) => {
  const { token, user } = await signIn(body, {
    ipAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
  });
  const response = Response.json({ ok: true, user });
  response.headers.append("set-cookie", sessionCookie(request, token));
  return response;
});
