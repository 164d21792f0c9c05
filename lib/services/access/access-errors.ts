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
