import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { deleteHttpCredential } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ name: z.string().min(1).max(200) });

/** Deletes an HTTP credential (owners and admins). */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await deleteHttpCredential(principal, params.name);
  return noContent();
});
