import "server-only";
import type { HttpAuthType } from "../../contracts/http-credential";

export { HTTP_AUTH_TYPES, type HttpAuthType } from "../../contracts/http-credential";

/** A decrypted HTTP credential, ready to apply to one request. */
export interface HttpAuth {
  /** The credential's name in the workspace. */
  credential: string;
  /** Bearer token, a custom header, a query parameter, or HTTP Basic. */
  type: HttpAuthType;
  /** Header or query parameter name (header, query). */
  name?: string;
  /** User name (basic). */
  username?: string;
  /** The token, header value, parameter value or password. */
  secret: string;
  /** Hosts or URL prefixes it may be sent to; absent: anywhere (stored before the setting existed). */
  allowedHosts?: string[];
}

/**
 * Prefixes of `ToolContext.credentials` entries that `http_request` applies to its request:
 * `header:<name>` sets a header, `query:<name>` a query parameter. They travel beside the tool's
 * arguments, so the secret never reaches the recorded tool call.
 */
export const CREDENTIAL_HEADER_PREFIX = "header:";
/** See {@link CREDENTIAL_HEADER_PREFIX}. */
export const CREDENTIAL_QUERY_PREFIX = "query:";

/** The `ToolContext.credentials` entries that apply `auth` to an `http_request` call. */
export function httpAuthCredentials(auth: HttpAuth): Record<string, string> {
  switch (auth.type) {
    case "bearer":
      return { [`${CREDENTIAL_HEADER_PREFIX}authorization`]: `Bearer ${auth.secret}` };
    case "basic":
      return {
        [`${CREDENTIAL_HEADER_PREFIX}authorization`]: `Basic ${Buffer.from(`${auth.username ?? ""}:${auth.secret}`).toString("base64")}`,
      };
    case "header":
      return { [`${CREDENTIAL_HEADER_PREFIX}${(auth.name ?? "").toLowerCase()}`]: auth.secret };
    case "query":
      return { [`${CREDENTIAL_QUERY_PREFIX}${auth.name ?? ""}`]: auth.secret };
  }
}

/** What a run record may say about the credential: where it went, never its value. */
export function describeHttpAuth(auth: HttpAuth): string {
  switch (auth.type) {
    case "bearer":
      return `credential "${auth.credential}": Authorization: Bearer ••••`;
    case "basic":
      return `credential "${auth.credential}": Authorization: Basic (user ${auth.username ?? ""})`;
    case "header":
      return `credential "${auth.credential}": header ${auth.name}: ••••`;
    case "query":
      return `credential "${auth.credential}": query parameter ${auth.name}=••••`;
  }
}
