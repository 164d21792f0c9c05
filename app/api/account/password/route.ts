import { getRequestContext } from "@/lib/db/context";
import { changePassword, passwordChangeSchema } from "@/lib/db/member-repository";
import { clientAddress, limitSignInAttempts } from "@/lib/http/rate-limits";
import { mapError, parseBody } from "@/lib/http/respond";

/** Changes the signed-in user's password (current one required; attempts are rate limited like sign-in). */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, passwordChangeSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { userId } = await getRequestContext();
    await limitSignInAttempts(clientAddress(request), `password-change:${userId}`);
    await changePassword(userId, parsed.data);
    return Response.json({ ok: true });
  } catch (error) {
    return mapError(error);
  }
}
