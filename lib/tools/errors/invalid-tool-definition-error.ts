import "server-only";
/** A tool definition itself is wrong (bad name, uncompilable schema). Code `invalid_tool_definition`. */
export class InvalidToolDefinitionError extends Error {
  /** Stable code. */
  readonly code = "invalid_tool_definition";

  constructor(message: string) {
    super(message);
    this.name = "InvalidToolDefinitionError";
  }
}
