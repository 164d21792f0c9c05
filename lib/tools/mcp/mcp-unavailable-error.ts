import "server-only";
import { ToolExecutionError } from "../errors/tool-execution-error";

/**
 * The MCP server could not be reached, did not answer the handshake, or went away mid-call.
 * Code `mcp_unavailable`; retryable (the next call reconnects).
 */
export class McpUnavailableError extends ToolExecutionError {
  /** Label of the server. */
  readonly server: string;

  constructor(server: string, reason: string, cause?: unknown) {
    super("mcp_unavailable", `MCP server "${server}" is unavailable: ${reason}`, {
      retryable: true,
      details: { server },
      cause,
    });
    this.name = "McpUnavailableError";
    this.server = server;
  }
}
