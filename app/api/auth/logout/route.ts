import { route } from "@/lib/http/route";
import { sessionTokenOf } from "@/lib/services/access/session";
import { clearedSessionCookie } from "@/lib/services/session-token";
import { signOut } from "@/lib/services/sessions";

/** Ends the session (its database row is deleted, so a copied cookie stops working) and clears the cookie. */
export const POST = route({ auth: "public" }, async ({ request, clientAddress }) => {
  await signOut(sessionTokenOf(request), clientAddress);
  const response = Response.json({ ok: true });
  response.headers.append("set-cookie", clearedSessionCookie());
  return response;
});
