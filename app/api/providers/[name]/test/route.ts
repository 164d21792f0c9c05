import { getAdminContext } from "@/lib/db/context";
import { loadProvider, mergeProviderInput } from "@/lib/db/credential-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { checkProvider } from "@/lib/services/provider-check";
import { providerTestBodySchema } from "../../schema";

export const dynamic = "force-dynamic";

/**
 * "Test": tries the settings as typed (saved or not). An API key or header value left empty is
 * taken from the stored provider of this name, so testing an edit needs no re-entry. Answers
 * `{ ok: true, method, models | reply }` or `{ ok: false, error }` within about 20 s.
 */
export async function POST(request: Request, context: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await context.params;
  const parsed = await parseBody(request, providerTestBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    const { model, ...settings } = parsed.data;
    const provider = mergeProviderInput({ ...settings, name }, await loadProvider(workspaceId, name));
    return Response.json(await checkProvider(provider, { name, model }));
  } catch (error) {
    return mapError(error);
  }
}
