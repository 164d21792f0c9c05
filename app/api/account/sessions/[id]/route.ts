import { z } from "zod";
import { route } from "@/lib/http/route";
import { clearedSessionCookie } from "@/lib/services/session-token";
import { revokeSession } from "@/lib/services/sessions";

/** Ends one of the signed-in user's sessions; ending the current one also clears its cookie. */
export const DELETE = route(
  { auth: "session", params: z.object({ id: z.string().min(1).max(100) }) },
  async ({ principal, params }) => {
    const { current } = await revokeSession(principal, params.id);
    const response = Response.json({ ok: true, current });
    if (current) response.headers.append("set-cookie", clearedSessionCookie());
    return response;
  },
);
