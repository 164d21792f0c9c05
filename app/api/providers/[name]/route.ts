import { noContent, route } from "@/lib/http/route";
import { deleteProvider, getProvider, saveProvider } from "@/lib/services/workspace-settings";
import { TrellisError } from "@/lib/workflow/errors";
import { providerBodySchema, providerPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** Node configs reference providers by name, so a rename would silently break workflows. */
class ProviderRenameError extends TrellisError {
  readonly details = { field: "name" };

  constructor() {
    super("provider_rename_unsupported", "A provider cannot be renamed; add a new one instead.");
  }
}

/** One provider (no secrets). */
export const GET = route({ auth: "session", params: providerPathSchema }, async ({ principal, params }) => ({
  provider: await getProvider(principal, params.name),
}));

/** Replaces a provider's settings; an API key or header value left out keeps the stored one. */
export const PUT = route(
  { auth: "session", params: providerPathSchema, body: providerBodySchema },
  async ({ principal, params, body }) => {
    if (body.name !== params.name) throw new ProviderRenameError();
    return { provider: await saveProvider(principal, body, "update") };
  },
);

/** Deletes a provider; nodes that use it then fail with `model_not_configured` (never the demo model). */
export const DELETE = route({ auth: "session", params: providerPathSchema }, async ({ principal, params }) => {
  await deleteProvider(principal, params.name);
  return noContent();
});
