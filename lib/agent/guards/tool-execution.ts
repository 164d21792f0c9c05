import "server-only";
import type { ToolDefinition, ToolResult } from "../../tools/define-tool";

/** Outcome of running a tool under the timeout and retry guards. */
export interface GuardedExecution {
  /** The last result (a synthesized error result for timeouts and thrown errors). */
  result: ToolResult;
  /** Times the tool ran. */
  attempts: number;
}

/** Options of `executeTool`. */
export interface ExecuteToolOptions {
  /** Timeout of one attempt in ms. */
  timeoutMs: number;
  /** The run's signal; when it fires the call is abandoned. */
  signal?: AbortSignal;
  /** Secrets for the tool. */
  credentials?: Record<string, string>;
  /** Idempotency key for side-effecting tools. */
  idempotencyKey?: string;
  /** Whether a retryable failure gets one more attempt. */
  retryTransient?: boolean;
}

function timeoutResult(tool: ToolDefinition, timeoutMs: number): ToolResult {
  return {
    ok: false,
    error: { code: "tool_timeout", message: `Tool "${tool.name}" did not answer within ${timeoutMs} ms.` },
    retryable: true,
  };
}

async function attemptOnce(tool: ToolDefinition, args: Record<string, unknown>, options: ExecuteToolOptions) {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race makes the timeout hold even for a tool that ignores its signal.
  const timeout = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error("tool_timeout"));
      resolve(timeoutResult(tool, options.timeoutMs));
    }, options.timeoutMs);
  });
  const run = tool
    .execute(args, {
      signal: controller.signal,
      credentials: options.credentials ?? {},
      idempotencyKey: options.idempotencyKey,
    })
    .catch(
      (error: unknown): ToolResult => ({
        ok: false,
        error: { code: "tool_error", message: error instanceof Error ? error.message : String(error) },
        // A thrown error is unexpected by contract, so trying again is not assumed to help.
        retryable: false,
      }),
    );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Runs a tool with a per-attempt timeout. A failure the tool marks `retryable` is tried once more;
 * a timeout is not retried here (that would double the wait) but is reported as retryable so the
 * model may choose to call again.
 */
export async function executeTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  options: ExecuteToolOptions,
): Promise<GuardedExecution> {
  let result = await attemptOnce(tool, args, options);
  let attempts = 1;
  const transient = !result.ok && result.retryable && result.error.code !== "tool_timeout";
  if (transient && options.retryTransient !== false && !options.signal?.aborted) {
    result = await attemptOnce(tool, args, options);
    attempts = 2;
  }
  return { result, attempts };
}
