import type { ExecutorContext, ExecutorResult, NodeExecutor } from "../executor";

/** A per-node behaviour for `scriptedExecutor`. */
export type NodeScript = (context: ExecutorContext) => unknown;

/** One executor call seen by a scripted executor. */
export interface ScriptedCall {
  /** Node id. */
  nodeId: string;
  /** Iteration path. */
  iterationPath: number[];
  /** Attempt. */
  attempt: number;
}

/**
 * An executor that runs a script per node id and otherwise delegates to `fallback`; it records
 * every call so tests can count executions (e.g. that resume does not re-run finished nodes).
 */
export function scriptedExecutor(
  scripts: Record<string, NodeScript>,
  fallback?: NodeExecutor,
): NodeExecutor & { calls: ScriptedCall[] } {
  const calls: ScriptedCall[] = [];
  const executor = ((context: ExecutorContext) => {
    calls.push({ nodeId: context.node.id, iterationPath: context.iterationPath, attempt: context.attempt });
    const script = scripts[context.node.id];
    if (script) return script(context) as Promise<ExecutorResult>;
    if (fallback) return fallback(context);
    return Promise.resolve({ outputs: {} });
  }) as NodeExecutor & { calls: ScriptedCall[] };
  executor.calls = calls;
  return executor;
}

/** Resolves after `ms`, or rejects when the signal aborts (well-behaved I/O). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A script that waits `ms` (honouring the signal) and then succeeds with `outputs`. */
export function delayed(ms: number, outputs: Record<string, unknown> = {}): NodeScript {
  return async (context) => {
    await delay(ms, context.signal);
    return { outputs };
  };
}
