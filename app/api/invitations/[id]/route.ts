import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { revokeInvitation } from "@/lib/services/invitations";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ id: z.string().min(1).max(200) });

/** Revokes an invitation: its link stops working. */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await revokeInvitation(principal, params.id);
  return noContent();
});
