import { getAdminContext } from "@/lib/db/context";
import { listProviders, upsertProvider } from "@/lib/db/credential-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { describeModelMode } from "@/lib/services/model-catalog";
import { providerBodySchema } from "./schema";

export const dynamic = "force-dynamic";

/** The workspace's model providers (API keys and header values never included) and the server's model mode. */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ providers: await listProviders(workspaceId), mode: describeModelMode() });
  } catch (error) {
    return mapError(error);
  }
}

/** Adds a provider; the API key and header values are encrypted at rest. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, providerBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ provider: await upsertProvider(workspaceId, parsed.data, "create") }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
