import "server-only";
import { ToolCancelledError } from "./errors/tool-cancelled-error";
import { ToolTimeoutError } from "./errors/tool-timeout-error";

/**
 * Runs `work` with its own AbortSignal that fires on the timeout or when `parentSignal` aborts.
 * The returned promise settles as soon as the signal fires, even if `work` ignores the signal,
 * so a misbehaving tool can never hang an agent or the engine.
 * @throws ToolTimeoutError on timeout, ToolCancelledError when the parent aborted.
 */
export async function runWithTimeout<T>(
  toolName: string,
  timeoutMs: number,
  parentSignal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (parentSignal.aborted) throw new ToolCancelledError(toolName);
  let rejectOnAbort: (reason: unknown) => void = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectOnAbort = reject;
  });
  const onParentAbort = () => {
    const error = new ToolCancelledError(toolName);
    controller.abort(error);
    rejectOnAbort(error);
  };
  parentSignal.addEventListener("abort", onParentAbort, { once: true });
  const timer = setTimeout(() => {
    const error = new ToolTimeoutError(toolName, timeoutMs);
    controller.abort(error);
    rejectOnAbort(error);
  }, timeoutMs);
  try {
    // Promise.resolve().then(...) turns a synchronous throw inside `work` into a rejection.
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), aborted]);
  } finally {
    clearTimeout(timer);
    parentSignal.removeEventListener("abort", onParentAbort);
  }
}
