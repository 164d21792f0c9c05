import { revokeApiKey } from "@/lib/db/api-key-repository";
import { getAdminContext } from "@/lib/db/context";
import { mapError } from "@/lib/http/respond";

interface RouteContext {
  params: Promise<{ id: string }>;
}

/** Revokes a key. */
export async function DELETE(_request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    await revokeApiKey(workspaceId, id);
    return Response.json({ ok: true });
  } catch (error) {
    return mapError(error);
  }
}
