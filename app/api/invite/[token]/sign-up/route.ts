import { z } from "zod";
import { json, route } from "@/lib/http/route";
import { newAccountSchema } from "@/lib/services/account";
import { acceptInvitationWithNewAccount } from "@/lib/services/invitations";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ token: z.string().min(1).max(200) });

/** Someone without an account creates one on the invite page and joins; they then sign in as usual. */
export const POST = route(
  { auth: "public", params: pathSchema, body: newAccountSchema },
  async ({ params, body, clientAddress }) =>
    json({ membership: await acceptInvitationWithNewAccount(params.token, body, { clientAddress }) }, 201),
);
