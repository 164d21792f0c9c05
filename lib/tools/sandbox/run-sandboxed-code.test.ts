import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../test-support/local-server";
import { runSandboxedCode } from "./run-sandboxed-code";
import { SandboxError } from "./sandbox-error";

async function expectSandboxError(promise: Promise<unknown>, code: string): Promise<SandboxError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SandboxError);
  expect((error as SandboxError).code).toBe(code);
  return error as SandboxError;
}

describe("QuickJS code sandbox", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer((_request, response) => response.end("still serving"));
  });
  afterAll(() => server.close());

  it("runs main(inputs) and returns JSON with captured console output", async () => {
    const run = await runSandboxedCode({
      code: "function main(inputs) { console.log('sum of', inputs.values.length); return { total: inputs.values.reduce((a, b) => a + b, 0) }; }",
      inputs: { values: [1, 2, 3.5] },
    });
    expect(run.result).toEqual({ total: 6.5 });
    expect(run.logs).toEqual([{ level: "log", text: "sum of 3" }]);
  });

  it("supports top-level results, const main and async main", async () => {
    expect((await runSandboxedCode({ code: "inputs.a * 2", inputs: { a: 21 } })).result).toBe(42);
    expect(
      (await runSandboxedCode({ code: "const main = (x) => x.name.toUpperCase();", inputs: { name: "ok" } })).result,
    ).toBe("OK");
    expect((await runSandboxedCode({ code: "async function main() { await null; return [1, 2]; }" })).result).toEqual([
      1, 2,
    ]);
  });

  it("reports thrown errors with their message", async () => {
    const error = await expectSandboxError(
      runSandboxedCode({ code: "function main() { throw new TypeError('bad input'); }" }),
      "sandbox_code_error",
    );
    expect(error.message).toContain("TypeError: bad input");
  });

  it("stops an infinite loop at the CPU limit while the host keeps serving HTTP", async () => {
    const started = Date.now();
    const loop = runSandboxedCode({ code: "while (true) {}", cpuLimitMs: 1000 });
    let loopSettled = false;
    void loop.then(
      () => (loopSettled = true),
      () => (loopSettled = true),
    );
    // While the loop spins, the test process's event loop must still answer requests: the answer
    // arrives before the sandbox gives up (an ordering, not a wall-clock bound, so load cannot flake it).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await fetch(`${server.origin}/`);
    expect(await response.text()).toBe("still serving");
    expect(loopSettled).toBe(false);
    await expectSandboxError(loop, "sandbox_cpu_limit");
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(4500);
    const after = await fetch(`${server.origin}/`);
    expect(await after.text()).toBe("still serving");
  });

  it("stops a tight loop inside main and an unsettled promise chain", async () => {
    await expectSandboxError(
      runSandboxedCode({ code: "function main() { for (;;) {} }", cpuLimitMs: 200 }),
      "sandbox_cpu_limit",
    );
    await expectSandboxError(
      runSandboxedCode({ code: "async function main() { for (;;) { await null; } }", cpuLimitMs: 200 }),
      "sandbox_cpu_limit",
    );
  });

  it.each([
    ["an ArrayBuffer", "new ArrayBuffer(1024 * 1024 * 1024)"],
    ["a typed array", "new Uint8Array(1024 * 1024 * 1024)"],
    ["a large array", "new Array(1024 * 1024 * 128).fill(0)"],
  ])("fails a 1 GB allocation (%s) at the memory limit", async (_label, code) => {
    await expectSandboxError(runSandboxedCode({ code }), "sandbox_memory_limit");
  });

  it("fails unbounded recursion at the stack limit", async () => {
    await expectSandboxError(
      runSandboxedCode({ code: "function f() { return f() + 1; } f()" }),
      "sandbox_stack_overflow",
    );
  });

  it.each([
    ["require", "typeof require"],
    ["process", "typeof process"],
    ["fetch", "typeof fetch"],
    ["XMLHttpRequest", "typeof XMLHttpRequest"],
    ["setTimeout", "typeof setTimeout"],
    ["Buffer", "typeof Buffer"],
    ["module", "typeof module"],
    ["globalThis.process", "typeof globalThis.process"],
    ["WebAssembly", "typeof WebAssembly"],
    ["Deno", "typeof Deno"],
    ["std (quickjs-libc)", "typeof std"],
    ["os (quickjs-libc)", "typeof os"],
  ])("exposes no %s", async (_name, code) => {
    expect((await runSandboxedCode({ code })).result).toBe("undefined");
  });

  it("cannot escape through the Function constructor", async () => {
    // The classic escape: in node:vm this reaches the host's process object; here it finds nothing.
    const escapeAttempt = await expectSandboxError(
      runSandboxedCode({ code: "globalThis.constructor.constructor('return process')()" }),
      "sandbox_code_error",
    );
    expect(escapeAttempt.message).toContain("'process' is not defined");
    expect(
      (await runSandboxedCode({ code: "this.constructor.constructor('return this')().process" })).result,
    ).toBeNull();
    const run = await runSandboxedCode({ code: "globalThis.constructor.constructor('return typeof process')()" });
    expect(run.result).toBe("undefined");
    const viaArrow = await runSandboxedCode({
      code: "(() => {}).constructor('return typeof require + typeof fetch')()",
    });
    expect(viaArrow.result).toBe("undefinedundefined");
  });

  it("cannot load modules with import()", async () => {
    const error = await expectSandboxError(
      runSandboxedCode({ code: "async function main() { return await import('node:fs'); }" }),
      "sandbox_code_error",
    );
    expect(error.message).toMatch(/module|import/i);
  });

  it("sees only the JSON copy of inputs", async () => {
    const run = await runSandboxedCode({
      code: "function main(inputs) { inputs.x = 1; return Object.keys(inputs); }",
      inputs: { a: 1 },
    });
    expect(run.result).toEqual(["a", "x"]);
  });

  it("rejects results that are not JSON", async () => {
    await expectSandboxError(runSandboxedCode({ code: "const a = {}; a.self = a; a" }), "sandbox_invalid_result");
  });

  it("terminates the worker when the caller aborts", async () => {
    const controller = new AbortController();
    const run = runSandboxedCode({ code: "while (true) {}", cpuLimitMs: 5000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stopped by test")), 200);
    await expect(run).rejects.toThrow("stopped by test");
  });
});

describe("sandbox concurrency", () => {
  it("runs a burst of more parallel calls than slots, all correctly, through the queue", async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_unused, index) =>
        runSandboxedCode({ code: "function main(inputs) { return inputs.n * 10; }", inputs: { n: index } }),
      ),
    );
    expect(runs.map((run) => run.result)).toEqual([0, 10, 20, 30, 40, 50]);
  });
});
