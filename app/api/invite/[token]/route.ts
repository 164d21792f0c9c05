import { z } from "zod";
import { route } from "@/lib/http/route";
import { describeInvitation } from "@/lib/services/invitations";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ token: z.string().min(1).max(200) });

/** What an invitation link offers (workspace name, role), for anyone holding the link. */
export const GET = route({ auth: "public", params: pathSchema }, async ({ params }) => ({
  invitation: await describeInvitation(params.token),
}));
