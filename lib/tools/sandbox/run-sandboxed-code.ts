import "server-only";
import { Worker } from "node:worker_threads";
import { SandboxError } from "./sandbox-error";
import { SANDBOX_WORKER_SOURCE } from "./sandbox-worker-source";

/** Limits for one sandboxed run. */
export interface SandboxLimits {
  /** CPU time for user code in ms (interrupt handler); default 1000. */
  cpuLimitMs?: number;
  /** QuickJS heap limit in bytes; default 64 MiB. */
  memoryLimitBytes?: number;
  /** QuickJS stack limit in bytes; default 512 KiB. */
  maxStackBytes?: number;
  /** Largest JSON result accepted, in bytes; default 1 MiB. */
  maxResultBytes?: number;
  /** console output kept, in characters; default 16 KiB. */
  maxLogBytes?: number;
}

/** Input for {@link runSandboxedCode}. */
export interface SandboxRunRequest extends SandboxLimits {
  /** JavaScript source. Either defines `main(inputs)` (sync or async) or ends with an expression. */
  code: string;
  /** JSON-serializable values, visible as `inputs` and passed to `main`. */
  inputs?: unknown;
  /** Stops the run (the worker is terminated). */
  signal?: AbortSignal;
}

/** One captured console call. */
export interface SandboxLogEntry {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
}

/** A successful run. */
export interface SandboxRunResult {
  /** `main`'s return value (or the script's completion value), as JSON data. */
  result: unknown;
  /** Captured console output. */
  logs: SandboxLogEntry[];
  /** Wall time including the worker start, in ms. */
  durationMs: number;
}

type WorkerOutcome =
  | { ok: true; resultJson: string; logs: SandboxLogEntry[] }
  | {
      ok: false;
      kind: "cpu_limit" | "memory_limit" | "stack_overflow" | "code_error" | "invalid_result" | "unavailable";
      error: { name: string; message: string; stack: string };
      logs: SandboxLogEntry[];
    };

/** Default limits. */
export const DEFAULT_SANDBOX_LIMITS = {
  cpuLimitMs: 1000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxStackBytes: 512 * 1024,
  maxResultBytes: 1024 * 1024,
  maxLogBytes: 16 * 1024,
} as const;

/**
 * Time allowed on top of the CPU limit for starting the worker and loading WebAssembly before the
 * host terminates the worker outright (the backstop for non-interruptible native calls).
 */
const WATCHDOG_GRACE_MS = 3000;

function toSandboxError(outcome: Extract<WorkerOutcome, { ok: false }>, limits: Required<SandboxLimits>): SandboxError {
  const { name, message, stack } = outcome.error;
  const details = { logs: outcome.logs };
  switch (outcome.kind) {
    case "cpu_limit":
      return new SandboxError(
        "sandbox_cpu_limit",
        `Code exceeded the CPU time limit of ${limits.cpuLimitMs} ms`,
        details,
      );
    case "memory_limit":
      return new SandboxError(
        "sandbox_memory_limit",
        `Code exceeded the memory limit of ${limits.memoryLimitBytes} bytes`,
        details,
      );
    case "stack_overflow":
      return new SandboxError(
        "sandbox_stack_overflow",
        `Code exceeded the stack limit of ${limits.maxStackBytes} bytes`,
        details,
      );
    case "invalid_result":
      return new SandboxError("sandbox_invalid_result", `The result cannot be returned as JSON: ${message}`, details);
    case "unavailable":
      return new SandboxError("sandbox_unavailable", `The code sandbox could not start: ${message}`, details);
    default:
      return new SandboxError("sandbox_code_error", `${name}: ${message}${stack ? `\n${stack}` : ""}`, details);
  }
}

/**
 * Runs user JavaScript in a fresh QuickJS (WebAssembly) runtime inside a fresh worker thread.
 * The code sees only ECMAScript built-ins, `inputs` and a capturing `console`: no `require`,
 * `process`, `fetch`, timers or module loading. Never uses node:vm, vm2 or `Function`.
 * @throws SandboxError with a stable code for limits, user errors and non-JSON results.
 */
export async function runSandboxedCode(request: SandboxRunRequest): Promise<SandboxRunResult> {
  // Each run is a worker with its own WebAssembly heap; cap how many exist at once so a burst of
  // parallel tool calls cannot exhaust the server's memory. Waiting callers queue in order.
  await acquireSlot(request.signal);
  try {
    return await runInWorker(request);
  } finally {
    releaseSlot();
  }
}

/** Most sandboxes running at the same time. */
export const MAX_CONCURRENT_SANDBOXES = 4;
let running = 0;
const waiting: Array<() => void> = [];

function acquireSlot(signal: AbortSignal | undefined): Promise<void> {
  if (running < MAX_CONCURRENT_SANDBOXES) {
    running += 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const grant = () => {
      signal?.removeEventListener("abort", onAbort);
      running += 1;
      resolve();
    };
    const onAbort = () => {
      const index = waiting.indexOf(grant);
      if (index >= 0) waiting.splice(index, 1);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(grant);
  });
}

function releaseSlot(): void {
  running -= 1;
  waiting.shift()?.();
}

function runInWorker(request: SandboxRunRequest): Promise<SandboxRunResult> {
  const limits: Required<SandboxLimits> = {
    cpuLimitMs: request.cpuLimitMs ?? DEFAULT_SANDBOX_LIMITS.cpuLimitMs,
    memoryLimitBytes: request.memoryLimitBytes ?? DEFAULT_SANDBOX_LIMITS.memoryLimitBytes,
    maxStackBytes: request.maxStackBytes ?? DEFAULT_SANDBOX_LIMITS.maxStackBytes,
    maxResultBytes: request.maxResultBytes ?? DEFAULT_SANDBOX_LIMITS.maxResultBytes,
    maxLogBytes: request.maxLogBytes ?? DEFAULT_SANDBOX_LIMITS.maxLogBytes,
  };
  let inputsJson: string;
  try {
    inputsJson = JSON.stringify(request.inputs ?? {}) ?? "null";
  } catch (error) {
    return Promise.reject(
      new SandboxError("sandbox_invalid_result", `inputs are not JSON-serializable: ${String(error)}`),
    );
  }
  const startedAt = Date.now();
  return new Promise<SandboxRunResult>((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(request.signal.reason ?? new Error("aborted"));
      return;
    }
    const worker = new Worker(SANDBOX_WORKER_SOURCE, {
      eval: true,
      workerData: {
        code: request.code,
        inputsJson,
        limits: {
          cpuMs: limits.cpuLimitMs,
          memoryBytes: limits.memoryLimitBytes,
          stackBytes: limits.maxStackBytes,
          maxResultBytes: limits.maxResultBytes,
          maxLogBytes: limits.maxLogBytes,
        },
      },
      // The V8 heap of the worker only holds the host glue; QuickJS memory is capped separately.
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      request.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      action();
    };
    const watchdog = setTimeout(
      () =>
        finish(() =>
          reject(
            toSandboxError(
              { ok: false, kind: "cpu_limit", error: { name: "", message: "", stack: "" }, logs: [] },
              limits,
            ),
          ),
        ),
      limits.cpuLimitMs + WATCHDOG_GRACE_MS,
    );
    const onAbort = () => finish(() => reject(request.signal?.reason ?? new Error("aborted")));
    request.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (outcome: WorkerOutcome) =>
      finish(() => {
        if (!outcome.ok) {
          reject(toSandboxError(outcome, limits));
          return;
        }
        resolve({ result: JSON.parse(outcome.resultJson), logs: outcome.logs, durationMs: Date.now() - startedAt });
      }),
    );
    worker.once("error", (error) =>
      finish(() => reject(new SandboxError("sandbox_unavailable", `The code sandbox crashed: ${error.message}`))),
    );
    worker.once("exit", (exitCode) =>
      finish(() => reject(new SandboxError("sandbox_unavailable", `The code sandbox exited early (code ${exitCode})`))),
    );
  });
}
