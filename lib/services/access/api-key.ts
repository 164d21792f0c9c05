import "server-only";
import { verifyApiKey } from "../../db/api-key-repository";
import { serviceRoot } from "../root";
import { NotSignedInError } from "./access-errors";
import type { ApiKeyPrincipal } from "./principal";
import { limitApiCalls } from "./rate-limits";

/** The bearer token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec((header ?? "").trim());
  return match?.[1];
}

/**
 * The API-key principal of a request, within the key's rate limit.
 * @throws NotSignedInError (401) for a missing, unknown or revoked key; RateLimitedError (429)
 */
export async function principalFromApiKey(request: Request): Promise<ApiKeyPrincipal> {
  const secret = bearerToken(request.headers.get("authorization"));
  if (!secret) throw new NotSignedInError("Send a valid API key as `Authorization: Bearer trl_...`.");
  const grant = await verifyApiKey(secret);
  if (!grant) throw new NotSignedInError("The API key is unknown or revoked.");
  await limitApiCalls(serviceRoot().rateLimits, grant.keyId);
  return {
    kind: "api-key",
    keyId: grant.keyId,
    workspaceId: grant.workspaceId,
    scopes: grant.scopes,
    workflowId: grant.workflowId,
  };
}
