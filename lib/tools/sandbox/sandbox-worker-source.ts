import "server-only";
/**
 * Source of the worker thread that runs one piece of user code in QuickJS and exits.
 *
 * It is a string run with `new Worker(source, { eval: true })` rather than a file so it works the
 * same under vitest, tsx and the Next.js server bundle (no worker-file path to resolve, no
 * TypeScript loader in the worker). `require` in an eval worker resolves from the process cwd,
 * which is the app root in every way Trellis is started.
 *
 * Why a worker at all: QuickJS runs synchronously. Its interrupt handler stops plain loops, but a
 * single long native call (e.g. `Array.prototype.fill` on a huge sparse array) is not
 * interruptible; in a worker the host can still terminate it, and the server's event loop is
 * never blocked.
 *
 * Handles are deliberately not disposed: the whole worker (and its WebAssembly memory) is thrown
 * away after one run, and disposing leaked handles could abort the runtime.
 */
export const SANDBOX_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const quickjs = require("quickjs-emscripten");

function stringify(context, handle) {
  const json = context.getProp(context.global, "JSON");
  const stringifyFn = context.getProp(json, "stringify");
  const result = context.callFunction(stringifyFn, json, handle);
  if (result.error) return { error: context.dump(result.error) };
  return { text: context.typeof(result.value) === "string" ? context.getString(result.value) : "null" };
}

function describeError(dumped) {
  if (dumped && typeof dumped === "object") {
    const name = typeof dumped.name === "string" ? dumped.name : "Error";
    const message = typeof dumped.message === "string" ? dumped.message : JSON.stringify(dumped);
    const stack = typeof dumped.stack === "string" ? dumped.stack.split("\n").slice(0, 6).join("\n") : "";
    return { name, message, stack };
  }
  return { name: "Error", message: String(dumped), stack: "" };
}

async function run() {
  const { code, inputsJson, limits } = workerData;
  const QuickJS = await quickjs.newQuickJSWASMModule(quickjs.RELEASE_SYNC);
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  // The CPU budget starts when user code starts, not while WebAssembly loads.
  const deadline = Date.now() + limits.cpuMs;
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) interrupted = true;
    return interrupted;
  });
  const context = runtime.newContext();

  const logs = [];
  let logBytes = 0;
  const consoleObject = context.newObject();
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const fn = context.newFunction(level, (...args) => {
      const text = args
        .map((arg) => {
          const value = context.dump(arg);
          return typeof value === "string" ? value : JSON.stringify(value);
        })
        .join(" ");
      if (logBytes < limits.maxLogBytes) {
        const kept = text.slice(0, limits.maxLogBytes - logBytes);
        logs.push({ level, text: kept });
        logBytes += kept.length;
      }
    });
    context.setProp(consoleObject, level, fn);
  }
  context.setProp(context.global, "console", consoleObject);

  const json = context.getProp(context.global, "JSON");
  const parsed = context.callFunction(context.getProp(json, "parse"), json, context.newString(inputsJson));
  const inputs = context.unwrapResult(parsed);
  context.setProp(context.global, "inputs", inputs);

  const fail = (error) => {
    const dumped = describeError(error);
    let kind = "code_error";
    if (interrupted) kind = "cpu_limit";
    else if (dumped.message === "out of memory") kind = "memory_limit";
    else if (dumped.message === "stack overflow") kind = "stack_overflow";
    return { ok: false, kind, error: dumped, logs };
  };

  const evaluated = context.evalCode(code, "user-code.js", { type: "global" });
  if (evaluated.error) return fail(context.dump(evaluated.error));
  let value = evaluated.value;

  // main may be a function declaration or a top-level let/const; both are visible to a second script.
  const mainLookup = context.evalCode("typeof main === 'function' ? main : undefined", "main-lookup.js");
  if (mainLookup.error) return fail(context.dump(mainLookup.error));
  if (context.typeof(mainLookup.value) === "function") {
    const called = context.callFunction(mainLookup.value, context.undefined, inputs);
    if (called.error) return fail(context.dump(called.error));
    value = called.value;
  }

  // Settle promises (async main, top-level promise results) by draining the job queue.
  let state = context.getPromiseState(value);
  while (state.type === "pending") {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return fail(context.dump(jobs.error));
    state = context.getPromiseState(value);
    if (state.type === "pending" && jobs.value === 0) {
      return { ok: false, kind: "code_error", error: { name: "Error", message: "the returned promise never settled", stack: "" }, logs };
    }
  }
  if (state.type === "rejected") return fail(context.dump(state.error));
  const settled = state.value;

  const serialized = stringify(context, settled);
  if (serialized.error) {
    const failure = fail(serialized.error);
    return failure.kind === "code_error" ? { ...failure, kind: "invalid_result" } : failure;
  }
  const text = serialized.text;
  if (text.length > limits.maxResultBytes) {
    return { ok: false, kind: "invalid_result", error: { name: "Error", message: "the result is larger than " + limits.maxResultBytes + " bytes", stack: "" }, logs };
  }
  return { ok: true, resultJson: text, logs };
}

run().then(
  (outcome) => parentPort.postMessage(outcome),
  (error) => parentPort.postMessage({ ok: false, kind: "unavailable", error: { name: "Error", message: String(error && error.message ? error.message : error), stack: "" }, logs: [] }),
);
`;
