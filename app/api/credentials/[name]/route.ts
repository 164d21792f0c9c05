import { z } from "zod";
import { httpCredentialUpdateSchema } from "@/lib/contracts/http-credential";
import { noContent, route } from "@/lib/http/route";
import { deleteHttpCredential, updateHttpCredential } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ name: z.string().min(1).max(200) });

/** Changes where an HTTP credential may be sent (`allowedHosts`) and optionally its secret (owners and admins). */
export const PATCH = route(
  { auth: "session", params: pathSchema, body: httpCredentialUpdateSchema },
  async ({ principal, params, body }) => ({ credential: await updateHttpCredential(principal, params.name, body) }),
);

/** Deletes an HTTP credential (owners and admins). */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await deleteHttpCredential(principal, params.name);
  return noContent();
});
