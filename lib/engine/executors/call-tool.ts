import "server-only";
import type { ToolDefinition, ToolResult } from "../../tools/define-tool";
import { linkWithTimeout, raceAbort } from "../abort";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext, PartialOutcome } from "../executor";

/**
 * Largest value a node keeps whole (an HTTP body, a code result, a tool result): 16 MiB of UTF-8.
 * Above it the value is cut with a visible marker and its original size, and the node run (and
 * so the run) ends `partial` with `output_truncated`: nothing is dropped silently.
 */
export const NODE_VALUE_LIMIT_BYTES = 16 * 1024 * 1024;

/** The partial outcome of a node whose tool value was cut, or undefined when it is whole. */
export function truncationPartial(result: Extract<ToolResult, { ok: true }>, what: string): PartialOutcome | undefined {
  if (!result.provenance.truncated) return undefined;
  const size = result.provenance.size;
  return {
    code: "output_truncated",
    message: `The ${what} was ${size} bytes; only the first part is kept (the limit for a node value is ${NODE_VALUE_LIMIT_BYTES} bytes).`,
    missing: [`${what} beyond the kept part (${size} bytes in total)`],
  };
}

/** Tool calls without their own timeout get this one. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** A tool by name from the run's registry, or a non-retryable `unknown_tool` failure. */
export function requireTool(context: ExecutorContext, name: string): ToolDefinition {
  const tool = context.services.tools.get(name);
  if (!tool) {
    throw new NodeExecutionError("unknown_tool", `No tool named "${name}" is available to this run.`, {
      hint: "Check the tool name (templated names render at run time) and the workspace's tools.",
    });
  }
  return tool;
}

/**
 * Calls a tool with the attempt's signal, the tool's timeout and the node's idempotency key,
 * recording `tool-call` and `tool-result` events. Returns the content on success; a failed
 * result becomes a `NodeExecutionError` carrying the tool's retryable flag, so the node's retry
 * policy decides. A tool that throws or ignores its signal is contained here too.
 */
export async function callTool(
  context: ExecutorContext,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  /** Secrets for the tool (`ToolContext.credentials`); never recorded, unlike `args`. */
  credentials: Record<string, string> = {},
): Promise<{ content: unknown; result: Extract<ToolResult, { ok: true }>; latencyMs: number }> {
  const toolCallId = `${context.idempotencyKey}:${context.attempt}`;
  context.emit({
    type: "tool-call",
    nodeId: context.node.id,
    iterationPath: context.iterationPath,
    attempt: context.attempt,
    toolCallId,
    toolName: tool.name,
    arguments: args,
  });
  const startedAt = Date.now();
  const result = await executeWithTimeout(context, tool, args, credentials);
  const latencyMs = Date.now() - startedAt;
  context.emit({
    type: "tool-result",
    nodeId: context.node.id,
    iterationPath: context.iterationPath,
    attempt: context.attempt,
    toolCallId,
    toolName: tool.name,
    ok: result.ok,
    result: result.ok ? result.content : result.error,
    latencyMs,
  });
  if (!result.ok) {
    // The message is on the node error already; the process data keeps only the code (one copy per attempt).
    throw new NodeExecutionError(result.error.code, result.error.message, {
      retryable: result.retryable,
      processData: { tool: tool.name, arguments: args, error: { code: result.error.code }, latencyMs },
    });
  }
  return { content: result.content, result, latencyMs };
}

async function executeWithTimeout(
  context: ExecutorContext,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  credentials: Record<string, string>,
): Promise<ToolResult> {
  const timeoutMs = tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  let timedOut = false;
  const link = linkWithTimeout(context.signal, timeoutMs, () => {
    timedOut = true;
    return new Error(`tool "${tool.name}" timed out`);
  });
  const signal = link.signal;
  try {
    let pending: Promise<ToolResult>;
    try {
      pending = Promise.resolve(
        tool.execute(args, {
          signal,
          credentials,
          idempotencyKey: context.idempotencyKey,
          // Nodes keep values whole up to the node value limit (a model never sees them raw).
          outputLimitBytes: NODE_VALUE_LIMIT_BYTES,
        }),
      );
    } catch (thrown) {
      pending = Promise.reject(thrown);
    }
    return await raceAbort(pending, signal);
  } catch (thrown) {
    // The node's own signal (cancel, node timeout) wins: the node runner reports it.
    if (context.signal.aborted) throw thrown;
    if (timedOut) {
      return {
        ok: false,
        error: { code: "tool_timeout", message: `Tool "${tool.name}" did not answer within ${timeoutMs} ms.` },
        retryable: true,
      };
    }
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return {
      ok: false,
      error: { code: "tool_crashed", message: `Tool "${tool.name}" threw: ${message}` },
      retryable: true,
    };
  } finally {
    link.dispose();
  }
}
