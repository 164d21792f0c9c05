import "server-only";
import { TrellisError } from "../workflow/errors";

/** A tool source id that does not exist in the caller's workspace. Code `tool_source_not_found` (404). */
export class ToolSourceNotFoundError extends TrellisError {
  /** The id asked for. */
  readonly sourceId: string;

  constructor(sourceId: string) {
    super("tool_source_not_found", `Tool source ${sourceId} does not exist.`);
    this.sourceId = sourceId;
  }
}

/** Another source in the workspace already has this name. Code `tool_source_name_taken`. */
export class ToolSourceNameTakenError extends TrellisError {
  /** The duplicate name. */
  readonly sourceName: string;
  /** Where the API points the form. */
  readonly issues: { path: string; message: string }[];

  constructor(name: string) {
    super("tool_source_name_taken", `A tool source named "${name}" already exists in this workspace.`);
    this.sourceName = name;
    this.issues = [{ path: "name", message: "This name is already used by another tool source." }];
  }
}

/**
 * A tool source cannot be saved as submitted (a missing secret, a changed kind, an invalid
 * OpenAPI document). `issues[0].path` names the field or the location inside the document.
 * Code `tool_source_invalid` unless a more specific one is given (`openapi_invalid`).
 */
export class InvalidToolSourceError extends TrellisError {
  /** Field (or document location) and problem, in the shape `parseBody` uses for 400s. */
  readonly issues: { path: string; message: string }[];

  constructor(path: string, problem: string, code = "tool_source_invalid", options?: { cause?: unknown }) {
    super(code, `${path}: ${problem}`, options);
    this.issues = [{ path, message: problem }];
  }
}
