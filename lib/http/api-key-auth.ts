import { type ApiKeyGrant, verifyApiKey } from "../db/api-key-repository";
import { TrellisError } from "../workflow/errors";

/** No valid API key was presented. */
export class UnauthorizedError extends TrellisError {
  constructor(message = "Send a valid API key as `Authorization: Bearer trl_...`.") {
    super("unauthorized", message);
  }
}

/** The key is valid but does not grant this. */
export class ForbiddenError extends TrellisError {
  constructor(message: string) {
    super("forbidden", message);
  }
}

/** Verifies the request's bearer key and that it carries `scope`. */
export async function requireApiKey(request: Request, scope: string): Promise<ApiKeyGrant> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new UnauthorizedError();
  const grant = await verifyApiKey(match[1]!);
  if (!grant) throw new UnauthorizedError("The API key is unknown or revoked.");
  if (!grant.scopes.includes(scope)) throw new ForbiddenError(`The API key lacks the "${scope}" scope.`);
  return grant;
}
