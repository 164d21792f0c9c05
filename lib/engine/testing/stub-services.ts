import type { LanguageModel, ModelRef, ModelResolver } from "../../llm/language-model";
import type { ToolContext, ToolDefinition, ToolRegistry, ToolResult } from "../../tools/define-tool";
import type { EngineServices } from "../executor";

/** What a stub tool handler may return: a full ToolResult, or plain content (wrapped as ok). */
export type StubToolHandler = (args: Record<string, unknown>, context: ToolContext) => unknown;

/** One recorded stub tool call. */
export interface StubToolCall {
  /** Tool name. */
  name: string;
  /** Arguments as received. */
  args: Record<string, unknown>;
  /** The idempotency key the engine passed. */
  idempotencyKey?: string;
}

/** A tool registry whose tools are plain functions, recording every call. */
export interface StubToolRegistry extends ToolRegistry {
  /** Calls in the order they started. */
  calls: StubToolCall[];
}

/** Builds a registry from handlers; a handler's return value is wrapped as `{ ok: true }` unless it is a ToolResult. */
export function createStubToolRegistry(
  handlers: Record<string, StubToolHandler>,
  options: { timeoutMs?: number } = {},
): StubToolRegistry {
  const calls: StubToolCall[] = [];
  const tools = new Map<string, ToolDefinition>();
  for (const [name, handler] of Object.entries(handlers)) {
    tools.set(name, {
      name,
      description: `stub ${name}`,
      parameters: { type: "object" },
      readOnly: true,
      timeoutMs: options.timeoutMs,
      source: { kind: "built-in", label: "stub" },
      execute: async (args, context): Promise<ToolResult> => {
        calls.push({ name, args, idempotencyKey: context.idempotencyKey });
        const value = await handler(args, context);
        if (isToolResult(value)) return value;
        return {
          ok: true,
          content: value,
          provenance: {
            tool: name,
            arguments: args,
            source: "stub",
            fetchedAt: new Date(0).toISOString(),
            truncated: false,
            size: 0,
          },
        };
      },
    });
  }
  return { calls, get: (name) => tools.get(name), list: () => [...tools.values()] };
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === "object" && value !== null && "ok" in value && ("content" in value || "error" in value);
}

/** A model resolver for runs that must not call a model: resolving fails loudly. */
export const refusingModelResolver: ModelResolver = {
  async resolve(ref: ModelRef): Promise<LanguageModel> {
    throw new Error(`No model is configured in this test (asked for ${ref.provider}/${ref.model}).`);
  },
};

/** Engine services for tests: stub tools, a refusing model resolver, and the given env. */
export function createTestServices(
  options: { tools?: ToolRegistry; models?: ModelResolver; env?: Record<string, string> } = {},
): EngineServices {
  return {
    tools: options.tools ?? createStubToolRegistry({}),
    models: options.models ?? refusingModelResolver,
    env: options.env ?? {},
  };
}
