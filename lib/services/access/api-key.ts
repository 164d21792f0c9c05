import "server-only";
import { isOriginAllowedByAnyKey, verifyApiKey } from "../../db/api-key-repository";
import { serviceRoot } from "../root";
import { InvalidApiKeyError, NotSignedInError } from "./access-errors";
import type { ApiKeyPrincipal } from "./principal";
import { limitApiCalls } from "./rate-limits";

/** The bearer token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec((header ?? "").trim());
  return match?.[1];
}

/**
 * The API-key principal of a request, within the key's own rate limit (or the default).
 * @throws NotSignedInError (401 `unauthorized`) without a key; InvalidApiKeyError (401
 * `invalid_api_key`, the same for unknown and revoked keys); RateLimitedError (429)
 */
export async function principalFromApiKey(request: Request): Promise<ApiKeyPrincipal> {
  const secret = bearerToken(request.headers.get("authorization"));
  if (!secret) throw new NotSignedInError("Send a valid API key as `Authorization: Bearer trl_...`.");
  const grant = await verifyApiKey(secret);
  if (!grant) throw new InvalidApiKeyError();
  await limitApiCalls(serviceRoot().rateLimits, grant.keyId, grant.rateLimitPerMinute);
  return {
    kind: "api-key",
    keyId: grant.keyId,
    workspaceId: grant.workspaceId,
    scopes: grant.scopes,
    workflowIds: grant.workflowIds,
    allowedOrigins: grant.allowedOrigins,
  };
}

/**
 * Whether a CORS preflight from `origin` may be answered with CORS headers. A preflight carries
 * no key, so this is "some live key allows this origin"; the request that follows is answered
 * with CORS headers only when its own key allows the origin.
 */
export function mayPreflightFrom(origin: string): Promise<boolean> {
  return isOriginAllowedByAnyKey(origin);
}
