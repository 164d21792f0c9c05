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

parentPort.on("message", ({ id, expression }) => {
  try {
    let result = evaluate(expression);
    if (result && typeof result === "object" && Array.isArray(result.entries)) result = result.entries[result.entries.length - 1];
    if (typeof result === "function" || result === undefined) {
      parentPort.postMessage({ id, ok: false, message: "the expression does not evaluate to a value" });
      return;
    }
    parentPort.postMessage({ id, ok: true, result: toPlain(result) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error && error.message ? error.message : String(error) });
  }
});
`;

/** Longest a single evaluation may take before the worker is terminated. */
export const CALCULATOR_TIME_LIMIT_MS = 2000;

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  for (const [id, call] of pending) {
    clearTimeout(call.timer);
    call.reject(error);
    pending.delete(id);
  }
}

function discardWorker(reason: Error): void {
  const current = worker;
  worker = undefined;
  failAll(reason);
  if (current) void current.terminate();
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const created = new Worker(CALCULATOR_WORKER_SOURCE, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
  });
  created.on("message", (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    clearTimeout(call.timer);
    if (pending.size === 0) created.unref();
    if (reply.ok) call.resolve(reply.result);
    else call.reject(new ToolExecutionError("invalid_expression", reply.message));
  });
  created.on("error", (error) => {
    if (worker === created)
      discardWorker(
        new ToolExecutionError("calculation_too_expensive", `The calculation was stopped: ${error.message}`),
      );
  });
  created.on("exit", () => {
    if (worker === created)
      discardWorker(
        new ToolExecutionError("calculation_too_expensive", "The calculator stopped unexpectedly", { retryable: true }),
      );
  });
  worker = created;
  return created;
}

/**
 * Evaluates an expression in the calculator worker.
 * @throws ToolExecutionError `invalid_expression` or `calculation_too_expensive`.
 */
export function evaluateExpression(expression: string, signal?: AbortSignal): Promise<unknown> {
  const current = ensureWorker();
  // Keep the process alive only while a calculation is in flight.
  current.ref();
  const id = nextId++;
  return new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => {
      discardWorker(
        new ToolExecutionError(
          "calculation_too_expensive",
          `The calculation took longer than ${CALCULATOR_TIME_LIMIT_MS} ms and was stopped`,
        ),
      );
    }, CALCULATOR_TIME_LIMIT_MS);
    pending.set(id, { resolve, reject, timer });
    signal?.addEventListener(
      "abort",
      () => discardWorker(signal.reason instanceof Error ? signal.reason : new Error("aborted")),
      {
        once: true,
      },
    );
    current.postMessage({ id, expression });
  });
}
