import { z } from "zod";
import { route } from "@/lib/http/route";
import { revokeKey, updateKey } from "@/lib/services/workspace-settings";
import { updateApiKeyBodySchema } from "../schema";

const pathSchema = z.object({ id: z.string().min(1).max(200) });

/** Revokes a key. */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await revokeKey(principal, params.id);
  return { ok: true };
});

/** Changes the key's scopes and limits (workflows, CORS origins, requests per minute). */
export const PATCH = route(
  { auth: "session", params: pathSchema, body: updateApiKeyBodySchema },
  async ({ principal, params, body }) => ({ key: await updateKey(principal, params.id, body) }),
);
