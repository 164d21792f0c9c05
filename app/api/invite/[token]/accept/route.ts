import { z } from "zod";
import { route } from "@/lib/http/route";
import { acceptInvitation } from "@/lib/services/invitations";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ token: z.string().min(1).max(200) });

/** The signed-in user accepts the invitation and becomes a member. */
export const POST = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => ({
  membership: await acceptInvitation(principal, params.token),
}));
