import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { signIn } from "@/lib/services/account";
import { sessionCookie } from "@/lib/services/session-token";
import { loginBodySchema } from "./schema";

/** Checks e-mail and password and sets the session cookie. */
export const POST = route({ auth: "public", body: loginBodySchema }, async ({ request, body }) => {
  const { token, user } = await signIn(body, clientAddress(request));
  const response = Response.json({ ok: true, user });
  response.headers.append("set-cookie", sessionCookie(request, token));
  return response;
});
