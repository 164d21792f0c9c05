import "server-only";
import { TrellisError } from "../../workflow/errors";

/** The request carries no valid session or key. Code `unauthorized` (401). */
export class NotSignedInError extends TrellisError {
  constructor(message = "Sign in first.") {
    super("unauthorized", message);
  }
}

/** The principal is known but may not do this. Code `forbidden` (403). */
export class ForbiddenError extends TrellisError {
  constructor(message: string) {
    super("forbidden", message);
  }
}

/**
 * An API key that is unknown or revoked. Code `invalid_api_key` (401). One code and one message
 * for both, so a caller cannot tell a revoked key from a made-up one.
 */
export class InvalidApiKeyError extends TrellisError {
  constructor() {
    super("invalid_api_key", "The API key is not valid.");
  }
}

/** A valid API key without the scope an action needs. Code `api_key_scope_missing` (403). */
export class ApiKeyScopeMissingError extends TrellisError {
  /** The scope that would allow it, when one would. */
  readonly details: { scope?: string };
  constructor(message: string, scope?: string) {
    super("api_key_scope_missing", message);
    this.details = scope ? { scope } : {};
  }
}
