import "server-only";
import { Worker } from "node:worker_threads";
import { ToolExecutionError } from "../errors/tool-execution-error";

/**
 * mathjs runs in a long-lived worker thread because some expressions are denial-of-service by
 * construction (`bigint(2)^bigint(100000000)` spins for half a minute, `nthRoots(1, 1e8)` exhausts
 * the heap). In the worker, the heap has its own small limit and the host terminates the worker
 * when a call overruns; the server itself never stalls or crashes. The worker is restarted lazily.
 *
 * The restricted instance follows the mathjs security guide: `import`, `createUnit`, `evaluate`,
 * `parse`, `simplify`, `derivative` (plus `resolve`, `compile`, `reviver`) are replaced by a
 * throwing function after our own `evaluate` reference is taken, and functions that allocate by
 * a requested size (`ones(20000, 20000)`) are disabled too.
 */
const CALCULATOR_WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { all, create } = require("mathjs");
const math = create(all);
const evaluate = math.evaluate.bind(math);
const disabled = () => { throw new Error("Function is disabled in the calculator"); };
const names = ["import", "createUnit", "evaluate", "parse", "simplify", "derivative", "resolve", "compile", "reviver",
  "ones", "zeros", "identity", "range", "resize", "random", "randomInt", "pickRandom", "matrixFromFunction", "nthRoots"];
math.import(Object.fromEntries(names.map((name) => [name, disabled])), { override: true });

function toPlain(value) {
  // 15 significant digits hide binary noise (0.1 + 0.2 gives 0.3).
  if (typeof value === "number") return Number.isFinite(value) ? Number.parseFloat(value.toPrecision(15)) : String(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  const text = math.format(value, { precision: 14 });
  return text.length > 10000 ? text.slice(0, 10000) + "…[result truncated: " + text.length + " characters]" : text;
}

parentPort.postMessage({ ready: true });
parentPort.on("message", ({ expression }) => {
  try {
    let result = evaluate(expression);
    if (result && typeof result === "object" && Array.isArray(result.entries)) result = result.entries[result.entries.length - 1];
    if (typeof result === "function" || result === undefined) {
      parentPort.postMessage({ ok: false, message: "the expression does not evaluate to a value" });
      return;
    }
    parentPort.postMessage({ ok: true, result: toPlain(result) });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: error && error.message ? error.message : String(error) });
  }
});
`;

/** Longest a single evaluation may take before the worker is terminated. */
export const CALCULATOR_TIME_LIMIT_MS = 2000;

/** Loading mathjs can take seconds on a busy machine; that time does not count against a call. */
const STARTUP_TIME_LIMIT_MS = 30_000;

type Reply = { ok: true; result: unknown } | { ok: false; message: string } | { ready: true };

interface Call {
  expression: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

// The worker evaluates one expression at a time, so each call's time limit measures only its own
// work: calls wait in `queue` and are sent one by one.
let worker: Worker | undefined;
let ready = false;
let startupTimer: NodeJS.Timeout | undefined;
let callTimer: NodeJS.Timeout | undefined;
let inFlight: Call | undefined;
const queue: Call[] = [];

function resetWorker(): void {
  const current = worker;
  worker = undefined;
  ready = false;
  clearTimeout(startupTimer);
  clearTimeout(callTimer);
  if (current) void current.terminate();
}

/** Fails the running call, throws the worker away and carries on with the queue on a new one. */
function abandonInFlight(error: unknown): void {
  const call = inFlight;
  inFlight = undefined;
  resetWorker();
  call?.reject(error);
  pump();
}

function startWorker(): void {
  const created = new Worker(CALCULATOR_WORKER_SOURCE, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
  });
  worker = created;
  startupTimer = setTimeout(() => {
    resetWorker();
    const waiting = queue.splice(0);
    for (const call of waiting) {
      call.reject(
        new ToolExecutionError("calculator_unavailable", "The calculator did not start in time", { retryable: true }),
      );
    }
  }, STARTUP_TIME_LIMIT_MS);
  created.on("message", (reply: Reply) => {
    if (worker !== created) return;
    if ("ready" in reply) {
      clearTimeout(startupTimer);
      ready = true;
      pump();
      return;
    }
    clearTimeout(callTimer);
    const call = inFlight;
    inFlight = undefined;
    if (reply.ok) call?.resolve(reply.result);
    else call?.reject(new ToolExecutionError("invalid_expression", reply.message));
    pump();
  });
  const onFailure = (reason: string) => {
    if (worker !== created) return;
    abandonInFlight(new ToolExecutionError("calculation_too_expensive", `The calculation was stopped: ${reason}`));
  };
  created.on("error", (error) => onFailure(error.message));
  created.on("exit", (code) => onFailure(`the calculator exited (code ${code})`));
}

function pump(): void {
  if (inFlight) return;
  if (queue.length === 0) {
    // Idle: do not keep the process alive for the worker's sake.
    worker?.unref();
    return;
  }
  if (!worker) startWorker();
  worker?.ref();
  if (!ready || !worker) return;
  const call = queue.shift() as Call;
  inFlight = call;
  callTimer = setTimeout(() => {
    abandonInFlight(
      new ToolExecutionError(
        "calculation_too_expensive",
        `The calculation took longer than ${CALCULATOR_TIME_LIMIT_MS} ms and was stopped`,
      ),
    );
  }, CALCULATOR_TIME_LIMIT_MS);
  worker.postMessage({ expression: call.expression });
}

/**
 * Evaluates an expression in the calculator worker.
 * @throws ToolExecutionError `invalid_expression`, `calculation_too_expensive` or `calculator_unavailable`.
 */
export function evaluateExpression(expression: string, signal?: AbortSignal): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const call: Call = { expression, resolve, reject };
    signal?.addEventListener(
      "abort",
      () => {
        const reason = signal.reason ?? new Error("aborted");
        if (inFlight === call) abandonInFlight(reason);
        else {
          const index = queue.indexOf(call);
          if (index >= 0) queue.splice(index, 1);
          reject(reason);
        }
      },
      { once: true },
    );
    queue.push(call);
    pump();
  });
}
