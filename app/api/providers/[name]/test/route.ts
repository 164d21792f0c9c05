import { route } from "@/lib/http/route";
import { testProvider } from "@/lib/services/workspace-settings";
import { providerPathSchema, providerTestBodySchema } from "../../schema";

export const dynamic = "force-dynamic";

/**
 * "Test": tries the settings as typed (saved or not). An API key or header value left empty is
 * taken from the stored provider of this name, so testing an edit needs no re-entry. Answers
 * `{ ok: true, method, models | reply }` or `{ ok: false, error }` within about 20 s.
 */
export const POST = route(
  { auth: "session", params: providerPathSchema, body: providerTestBodySchema },
  async ({ principal, params, body }) => testProvider(principal, params.name, body),
);
