import { getAdminContext, getRequestContext } from "@/lib/db/context";
import {
  createHttpCredential,
  httpCredentialInputSchema,
  listHttpCredentials,
} from "@/lib/db/http-credential-repository";
import { mapError, parseBody } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The workspace's HTTP credentials (names, types, header/parameter names; never secrets), for the http node's picker too. */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getRequestContext();
    return Response.json({ credentials: await listHttpCredentials(workspaceId) });
  } catch (error) {
    return mapError(error);
  }
}

/** Adds an HTTP credential (owners and admins); the secret is encrypted at rest and never returned. */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, httpCredentialInputSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId } = await getAdminContext();
    return Response.json({ credential: await createHttpCredential(workspaceId, parsed.data) }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
