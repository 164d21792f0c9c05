/**
 * Marks Trellis errors across copies of this module. Next.js bundles instrumentation and each
 * route separately, so an error thrown by a service created in one bundle (the run service made at
 * start-up) is not `instanceof` the class a route imported; `Symbol.for` is shared by all of them.
 */
const TRELLIS_ERROR_BRAND = Symbol.for("trellis.error");

/**
 * Base class for every Trellis error. `code` is stable and machine-readable; subclasses add
 * structured fields. Each concrete error lives in its own small class with a fixed code.
 */
export class TrellisError extends Error {
  /** Stable code, e.g. `invalid_document`. */
  readonly code: string;
  /** Optional fix hint for people. */
  readonly hint?: string;

  constructor(code: string, message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options?.hint;
    Object.defineProperty(this, TRELLIS_ERROR_BRAND, { value: true });
  }
}

/**
 * A fault on the server's side, not the caller's: an answer from a component we depend on that we
 * did not expect, or a row that should exist and does not. It keeps a stable `code` (for logs and
 * alerts), but the HTTP edge answers it as a logged 500 whose message says nothing of the cause,
 * because the message is written for operators, not clients.
 */
export class ServerFaultError extends TrellisError {
  /** Marks server faults across copies of this module (see TRELLIS_ERROR_BRAND). */
  readonly serverFault = true;
}

/** True for a {@link ServerFaultError} from any copy of this module. */
export function isServerFault(error: TrellisError): boolean {
  return (error as { serverFault?: unknown }).serverFault === true;
}

/** True for a TrellisError from any copy of this module (see TRELLIS_ERROR_BRAND); use it, not `instanceof`, at the HTTP edge. */
export function isTrellisError(error: unknown): error is TrellisError {
  return (
    error instanceof TrellisError ||
    (error instanceof Error && (error as unknown as Record<symbol, unknown>)[TRELLIS_ERROR_BRAND] === true)
  );
}

/**
 * Longest error message kept in records, events and results: 8 KiB. A code node that throws a
 * 10 MB message (or a provider answering with a huge body) must not store megabytes per copy.
 */
export const MAX_ERROR_MESSAGE_CHARS = 8 * 1024;

/** `message` cut to {@link MAX_ERROR_MESSAGE_CHARS} with a marker naming the original length. */
export function capErrorMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_CHARS) return message;
  return `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}…[message truncated: ${message.length} characters]`;
}
