import { getAdminContext } from "@/lib/db/context";
import { deleteHttpCredential } from "@/lib/db/http-credential-repository";
import { mapError } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Route params (a promise since Next 15). */
interface CredentialRouteContext {
  params: Promise<{ name: string }>;
}

/** Deletes an HTTP credential (owners and admins). */
export async function DELETE(_request: Request, context: CredentialRouteContext): Promise<Response> {
  const { name } = await context.params;
  try {
    const { workspaceId } = await getAdminContext();
    await deleteHttpCredential(workspaceId, name);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
