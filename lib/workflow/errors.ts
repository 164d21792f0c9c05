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
  }
}
