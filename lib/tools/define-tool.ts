/** Where a tool result came from, recorded with every result. */
export interface ToolProvenance {
  /** Tool name. */
  tool: string;
  /** Arguments the tool ran with. */
  arguments: unknown;
  /** URL, MCP server or OpenAPI operation. */
  source: string;
  /** ISO time of the fetch. */
  fetchedAt: string;
  /** True when the content was cut to the size cap. */
  truncated: boolean;
  /** Size in bytes before truncation. */
  size: number;
}

/** A tool failure. `retryable` tells agents and the engine whether trying again may help. */
export interface ToolError {
  /** Stable code, e.g. `tool_timeout`, `ssrf_blocked`, `invalid_arguments`. */
  code: string;
  /** Human explanation, also shown to the model. */
  message: string;
}

/** Result of one tool execution. */
export type ToolResult =
  | { ok: true; content: unknown; provenance: ToolProvenance }
  | { ok: false; error: ToolError; retryable: boolean };

/** What a tool gets besides its arguments. */
export interface ToolContext {
  /** Aborts the call on cancel or timeout. */
  signal: AbortSignal;
  /** Decrypted secrets for this tool, by name. */
  credentials: Record<string, string>;
  /** Workspace the run belongs to. */
  workspaceId?: string;
  /** Idempotency key for side-effecting calls: stable across resume of the same node attempt. */
  idempotencyKey?: string;
}

/** A tool the agents, the tool node and plan steps can call. */
export interface ToolDefinition {
  /** Unique name within a registry; what the model calls. */
  name: string;
  /** What the tool does, shown to the model and in the picker. */
  description: string;
  /** JSON Schema for the arguments object. */
  parameters: Record<string, unknown>;
  /** True when the tool has no side effects (read-only allowlists use this). */
  readOnly: boolean;
  /** Per-call timeout in ms; 30 s when unset. */
  timeoutMs?: number;
  /** Where the tool comes from, shown in the picker. */
  source: { kind: "built-in" | "openapi" | "mcp" | "workflow"; label: string; annotations?: Record<string, unknown> };
  /** Run the tool. Must honour `context.signal` and never throw for expected failures. */
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** A set of tools looked up by name. */
export interface ToolRegistry {
  /** A tool by exact name. */
  get(name: string): ToolDefinition | undefined;
  /** All tools. */
  list(): ToolDefinition[];
}
