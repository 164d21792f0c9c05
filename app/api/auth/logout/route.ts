import { route } from "@/lib/http/route";
import { SESSION_COOKIE } from "@/lib/services/session-token";

/** Clears the session cookie. */
export const POST = route({ auth: "public" }, async () => {
  const response = Response.json({ ok: true });
  response.headers.append("set-cookie", `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  return response;
});
