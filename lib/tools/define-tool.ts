import "server-only";
import { z } from "zod";
import { capErrorMessage } from "../workflow/errors";
import { InvalidArgumentsError } from "./errors/invalid-arguments-error";
import { InvalidToolDefinitionError } from "./errors/invalid-tool-definition-error";
import { ToolExecutionError } from "./errors/tool-execution-error";
import { compileArgumentValidator, type JsonSchema, withoutMetaSchema } from "./json-schema-validator";
import { runWithTimeout } from "./run-with-timeout";
import { DEFAULT_MAX_OUTPUT_BYTES, truncateOutput } from "./truncate-output";

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
  /**
   * Set by callers that keep values whole rather than show them to a model (workflow nodes: the
   * engine's node value limit). The output cap, the HTTP body cap and the sandbox result cap rise
   * to it; above it the value is cut with a marker and the original size.
   */
  outputLimitBytes?: number;
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

// ---------------------------------------------------------------------------------------------
// Helpers for building ToolDefinitions. Everything above this line is the shared contract.
// ---------------------------------------------------------------------------------------------

/** Per-call timeout when a tool sets none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** Tool names the model can call: what OpenAI-compatible APIs accept for function names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const toolOutputBrand = Symbol("trellis.toolOutput");

/** Content plus provenance details, returned by `execute` via {@link toolOutput}. */
export interface ToolOutput {
  readonly [toolOutputBrand]: true;
  /** The content given to the model. */
  content: unknown;
  /** Where it came from (URL, operation, server); defaults to `<kind>:<tool name>`. */
  source?: string;
  /** Set when the tool itself already cut the content (e.g. an HTTP body cap). */
  truncated?: boolean;
  /** Original size in bytes when the tool cut the content itself. */
  size?: number;
}

/**
 * Wraps a tool's content with provenance details. Use it when the content came from a URL or
 * was already cut by a transport cap, so the recorded provenance says so.
 */
export function toolOutput(
  content: unknown,
  details: { source?: string; truncated?: boolean; size?: number } = {},
): ToolOutput {
  return { [toolOutputBrand]: true, content, ...details };
}

function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === "object" && value !== null && toolOutputBrand in value;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** Options for {@link defineTool}. `TArgs` is inferred from a zod schema. */
export interface DefineToolOptions<TArgs> {
  /** Unique name: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What the tool does, for the model and the picker. */
  description: string;
  /** A zod schema (converted with `z.toJSONSchema`) or a JSON Schema object. */
  parameters: z.ZodType<TArgs> | JsonSchema;
  /** True when the tool has no side effects. Defaults to false: side effects are assumed. */
  readOnly?: boolean;
  /** Per-call timeout in ms; {@link DEFAULT_TOOL_TIMEOUT_MS} when unset. */
  timeoutMs?: number;
  /** Output cap in UTF-8 bytes; {@link DEFAULT_MAX_OUTPUT_BYTES} when unset. */
  maxOutputBytes?: number;
  /** Where the tool comes from; built-in by default. */
  source?: ToolDefinition["source"];
  /**
   * Old argument names still accepted, mapped to the current ones (`{ from: "from_currency" }`),
   * so saved workflows keep working after a rename. Applied before validation, only when the
   * current name is absent; the schema offered to models names only the current arguments.
   */
  argumentAliases?: Record<string, string>;
  /**
   * Does the work. Return content (or {@link toolOutput}); throw a {@link ToolExecutionError}
   * for expected failures. `context.signal` fires on timeout and cancel: pass it to I/O.
   */
  execute(args: TArgs, context: ToolContext): Promise<unknown> | unknown;
}

function toFailure(error: unknown): ToolResult {
  // Capped at the source: every copy (tool-result event, node error, run error) stays small.
  if (error instanceof ToolExecutionError) {
    return {
      ok: false,
      error: { code: error.code, message: capErrorMessage(error.message) },
      retryable: error.retryable,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: { code: "tool_failed", message: capErrorMessage(message) }, retryable: false };
}

/** Renames old argument names to current ones (a copy; the current name wins when both are given). */
export function applyArgumentAliases(
  args: Record<string, unknown>,
  aliases: Record<string, string> | undefined,
): Record<string, unknown> {
  if (!aliases || typeof args !== "object" || args === null || Array.isArray(args)) return args;
  let renamed: Record<string, unknown> | undefined;
  for (const [oldName, currentName] of Object.entries(aliases)) {
    if (!(oldName in args)) continue;
    renamed ??= { ...args };
    if (!(currentName in renamed)) renamed[currentName] = renamed[oldName];
    delete renamed[oldName];
  }
  return renamed ?? args;
}

// zod → JSON Schema conversion per zod schema object (module-level schemas are converted once).
const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();

/** The JSON Schema of a zod parameter schema, without `$schema`; a fresh copy per tool. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let converted = jsonSchemas.get(schema);
  if (!converted) {
    converted = withoutMetaSchema(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);
    jsonSchemas.set(schema, converted);
  }
  return structuredClone(converted);
}

/**
 * Builds a {@link ToolDefinition} whose `execute` never throws and always:
 * validates arguments (Ajv against the JSON schema; `invalid_arguments` on failure),
 * enforces the timeout through an AbortSignal (`tool_timeout`, retryable),
 * maps throws to `tool_failed` (or the thrown {@link ToolExecutionError}'s code),
 * and caps the output size with a visible marker, recording the original size in provenance.
 * @throws InvalidToolDefinitionError for a bad name or an uncompilable schema.
 */
export function defineTool<TArgs = Record<string, unknown>>(options: DefineToolOptions<TArgs>): ToolDefinition {
  if (!TOOL_NAME_PATTERN.test(options.name)) {
    throw new InvalidToolDefinitionError(
      `Tool name "${options.name}" is invalid: use 1-64 letters, digits, "_" or "-"`,
    );
  }
  const zodSchema = isZodSchema(options.parameters) ? options.parameters : undefined;
  // `$schema` is dropped: models and provider APIs only need the schema body.
  const parameters: JsonSchema = zodSchema ? jsonSchemaOf(zodSchema) : (options.parameters as JsonSchema);
  const validateArguments = compileArgumentValidator(options.name, parameters);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const source = options.source ?? { kind: "built-in", label: "Built-in" };

  const execute = async (rawArgs: Record<string, unknown>, context: ToolContext): Promise<ToolResult> => {
    const fetchedAt = new Date().toISOString();
    const validation = validateArguments(applyArgumentAliases(rawArgs ?? {}, options.argumentAliases));
    if (!validation.ok) return toFailure(new InvalidArgumentsError(validation.message));
    let args: unknown = validation.value;
    if (zodSchema) {
      // zod runs after Ajv for refinements and transforms JSON Schema cannot express.
      const parsed = zodSchema.safeParse(args);
      if (!parsed.success) return toFailure(new InvalidArgumentsError(z.prettifyError(parsed.error)));
      args = parsed.data;
    }
    try {
      const produced = await runWithTimeout(options.name, timeoutMs, context.signal, (signal) =>
        Promise.resolve(options.execute(args as TArgs, { ...context, signal })),
      );
      const output = isToolOutput(produced) ? produced : undefined;
      const limit = Math.max(maxOutputBytes, context.outputLimitBytes ?? 0);
      const capped = truncateOutput(output ? output.content : produced, limit);
      return {
        ok: true,
        content: capped.content,
        provenance: {
          tool: options.name,
          arguments: validation.value,
          source: output?.source ?? `${source.kind}:${options.name}`,
          fetchedAt,
          truncated: capped.truncated || output?.truncated === true,
          size: Math.max(capped.size, output?.size ?? 0),
        },
      };
    } catch (error) {
      return toFailure(error);
    }
  };

  return {
    name: options.name,
    description: options.description,
    parameters,
    readOnly: options.readOnly ?? false,
    timeoutMs,
    source,
    execute,
  };
}
