import { z } from "zod";
import { route } from "@/lib/http/route";
import { revokeKey } from "@/lib/services/workspace-settings";

const pathSchema = z.object({ id: z.string().min(1).max(200) });

/** Revokes a key. */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await revokeKey(principal, params.id);
  return { ok: true };
});
