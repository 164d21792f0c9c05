import { json, route } from "@/lib/http/route";
import { listProviders, saveProvider } from "@/lib/services/workspace-settings";
import { providerBodySchema } from "./schema";

export const dynamic = "force-dynamic";

/** The workspace's model providers (API keys and header values never included) and the server's model mode. */
export const GET = route({ auth: "session" }, async ({ principal }) => listProviders(principal));

/** Adds a provider; the API key and header values are encrypted at rest. */
export const POST = route({ auth: "session", body: providerBodySchema }, async ({ principal, body }) =>
  json({ provider: await saveProvider(principal, body, "create") }, 201),
);
