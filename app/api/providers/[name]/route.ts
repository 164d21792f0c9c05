import { getAdminContext } from "@/lib/db/context";
import { deleteProvider, getProviderView, upsertProvider } from "@/lib/db/credential-repository";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { providerBodySchema } from "../schema";

export const dynamic = "force-dynamic";

/** Route params (a promise since Next 15). */
interface ProviderRouteContext {
  params: Promise<{ name: string }>;
}

function notFound(name: string): Response {
  return errorResponse(404, "provider_not_found", `Model provider "${name}" does not exist.`);
}

/** One provider (no secrets). */
export async function GET(_request: Request, context: ProviderRouteContext): Promise<Response> {
  const { name } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    const provider = await getProviderView(workspaceId, name);
    return provider ? Response.json({ provider }) : notFound(name);
  } catch (error) {
    return mapError(error);
  }
}

/** Replaces a provider's settings; an API key or header value left out keeps the stored one. */
export async function PUT(request: Request, context: ProviderRouteContext): Promise<Response> {
  const { name } = await context.params;
  const parsed = await parseBody(request, providerBodySchema);
  if (!parsed.ok) return parsed.response;
  if (parsed.data.name !== name) {
    // Node configs reference providers by name, so a rename would silently break workflows.
    return errorResponse(400, "provider_rename_unsupported", "A provider cannot be renamed; add a new one instead.", {
      field: "name",
    });
  }
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ provider: await upsertProvider(workspaceId, parsed.data, "update") });
  } catch (error) {
    return mapError(error);
  }
}

/** Deletes a provider; nodes that use it then fail with `model_not_configured` (never the demo model). */
export async function DELETE(_request: Request, context: ProviderRouteContext): Promise<Response> {
  const { name } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    await deleteProvider(workspaceId, name);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
