import { json, route } from "@/lib/http/route";
import { createKey, listKeys } from "@/lib/services/workspace-settings";
import { createApiKeyBodySchema } from "./schema";

/** The workspace's API keys (never their secrets). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ keys: await listKeys(principal) }));

/** Creates a key; the response carries the secret, which is never shown again. */
export const POST = route({ auth: "session", body: createApiKeyBodySchema }, async ({ principal, body }) =>
  json(await createKey(principal, body), 201),
);
