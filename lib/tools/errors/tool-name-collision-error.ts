import "server-only";
/**
 * Two tools with the same name were put into one registry. Thrown when the registry is built
 * (a configuration mistake, not a tool result). Code `tool_name_collision`.
 */
export class ToolNameCollisionError extends Error {
  /** Stable code. */
  readonly code = "tool_name_collision";
  /** The duplicated name. */
  readonly toolName: string;
  /** Labels of the sources that both define it. */
  readonly sources: [string, string];

  constructor(toolName: string, firstSource: string, secondSource: string) {
    super(
      `Tool name "${toolName}" is defined twice: by ${firstSource} and by ${secondSource}. Rename one of them (for MCP servers, set a tool name prefix).`,
    );
    this.name = "ToolNameCollisionError";
    this.toolName = toolName;
    this.sources = [firstSource, secondSource];
  }
}
