import "server-only";
import type { ToolDefinition, ToolResult } from "../../tools/define-tool";
import { linkWithTimeout, raceAbort } from "../abort";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext } from "../executor";

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
    throw new NodeExecutionError(result.error.code, result.error.message, {
      retryable: result.retryable,
      processData: { tool: tool.name, arguments: args, error: result.error, latencyMs },
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
      pending = Promise.resolve(tool.execute(args, { signal, credentials, idempotencyKey: context.idempotencyKey }));
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
