import { createApiKey, listApiKeys } from "@/lib/db/api-key-repository";
import { getAdminContext } from "@/lib/db/context";
import { mapError, parseBody } from "@/lib/http/respond";
import { createApiKeyBodySchema } from "./schema";

/** The workspace's API keys (never their secrets). */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ keys: await listApiKeys(workspaceId) });
  } catch (error) {
    return mapError(error);
  }
}

/** Creates a key; the response carries the secret, which is never shown again. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, createApiKeyBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json(await createApiKey(workspaceId, parsed.data), { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
