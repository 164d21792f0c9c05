import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonTool } from "../built-ins/python";
import { testContext } from "../test-support/local-server";
import { type PythonSandboxSettings, pythonSandboxFromEnvironment, runPythonInSandbox } from "./python-sandbox";
import { SandboxError } from "./sandbox-error";
import { type DifySandboxStub, findTestPython, startDifySandboxStub } from "./testing/dify-sandbox-stub";

const python = findTestPython();

function settingsFor(stub: DifySandboxStub, overrides: Partial<PythonSandboxSettings> = {}): PythonSandboxSettings {
  const settings = pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: stub.url });
  if (!settings) throw new Error("no settings");
  return { ...settings, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(SandboxError);
  return thrown as SandboxError;
}

describe("settings from the environment", () => {
  it("reads the base URL, the key (dify-sandbox's default when unset) and the network switch (off unless on)", () => {
    expect(pythonSandboxFromEnvironment({})).toBeNull();
    expect(pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: " http://127.0.0.1:8194 " })).toEqual({
      runUrl: "http://127.0.0.1:8194/v1/sandbox/run",
      apiKey: "dify-sandbox",
      network: false,
    });
    expect(
      pythonSandboxFromEnvironment({
        TRELLIS_CODE_SANDBOX_URL: "https://sandbox.internal/prefix",
        TRELLIS_CODE_SANDBOX_KEY: "k-1",
        TRELLIS_CODE_SANDBOX_NETWORK: "on",
      }),
    ).toEqual({ runUrl: "https://sandbox.internal/prefix/v1/sandbox/run", apiKey: "k-1", network: true });
  });

  it.each(["sandbox:8194", "ftp://127.0.0.1/"])("refuses %s, naming the setting", (value) => {
    expect(() => pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: value })).toThrow(/TRELLIS_CODE_SANDBOX_URL/);
  });
});

describe("the python tool without a sandbox", () => {
  it("fails with sandbox_not_configured, saying what to set, and is not retried", async () => {
    const result = await createPythonTool({ sandbox: null }).execute(
      { code: "def main():\n    return 1\n" },
      testContext(),
    );
    expect(result).toMatchObject({ ok: false, retryable: false, error: { code: "sandbox_not_configured" } });
    expect(result.ok ? "" : result.error.message).toContain("TRELLIS_CODE_SANDBOX_URL");
  });
});

describe("the dify-sandbox protocol (canned answers)", () => {
  let stub: DifySandboxStub;
  let next: { status: number; body?: unknown } | undefined;
  beforeAll(async () => {
    stub = await startDifySandboxStub({ key: "right-key", answer: () => next });
  });
  afterAll(() => stub.close());

  it("sends the runner script as python3 with the key, no preload and the network switch", async () => {
    next = { status: 200, body: { code: 0, message: "success", data: { stdout: "", error: "" } } };
    await failure(
      runPythonInSandbox({
        code: "def main(a):\n    return a\n",
        inputs: { a: "é" },
        settings: settingsFor(stub, { apiKey: "right-key" }),
      }),
    );
    const sent = stub.requests.at(-1)!;
    expect(sent.apiKey).toBe("right-key");
    expect(sent.body).toMatchObject({ language: "python3", preload: "", enable_network: false });
    expect(sent.body.code).toMatch(/^def main\(a\):\n {4}return a\n/);
    expect(sent.body.code).toContain(Buffer.from(JSON.stringify({ a: "é" })).toString("base64"));
  });

  it("a wrong key (dify-sandbox answers a bare 401) is sandbox_rejected, naming the key setting", async () => {
    const error = await failure(
      runPythonInSandbox({ code: "x", inputs: {}, settings: settingsFor(stub, { apiKey: "wrong" }) }),
    );
    expect(error.code).toBe("sandbox_rejected");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("TRELLIS_CODE_SANDBOX_KEY");
  });

  it("busy (503 Too many requests, or -429 when no sandbox user is free) is sandbox_unavailable and retryable", async () => {
    const settings = settingsFor(stub, { apiKey: "right-key" });
    next = { status: 503, body: { code: -503, message: "Too many requests" } };
    const busy = await failure(runPythonInSandbox({ code: "x", inputs: {}, settings }));
    expect([busy.code, busy.retryable]).toEqual(["sandbox_unavailable", true]);
    expect(busy.message).toContain("Too many requests");
    next = { status: 200, body: { code: -429, message: "uid pool exhausted" } };
    const exhausted = await failure(runPythonInSandbox({ code: "x", inputs: {}, settings }));
    expect([exhausted.code, exhausted.retryable]).toEqual(["sandbox_unavailable", true]);
  });

  it("a refusal in the answer (network disabled, unsupported language) is sandbox_rejected with its message", async () => {
    next = { status: 200, body: { code: -400, message: "network is disabled, please enable it in the configuration" } };
    const error = await failure(
      runPythonInSandbox({ code: "x", inputs: {}, settings: settingsFor(stub, { apiKey: "right-key" }) }),
    );
    expect(error.code).toBe("sandbox_rejected");
    expect(error.message).toContain("network is disabled");
  });

  it("a proxy's HTML error page is sandbox_unavailable, quoting it", async () => {
    next = { status: 502, body: "<html><body>Bad Gateway</body></html>" };
    const error = await failure(
      runPythonInSandbox({ code: "x", inputs: {}, settings: settingsFor(stub, { apiKey: "right-key" }) }),
    );
    expect(error.code).toBe("sandbox_unavailable");
    expect(error.message).toContain("Bad Gateway");
  });

  it("an answer larger than the cap is refused, not read into memory", async () => {
    next = { status: 200, body: { code: 0, message: "success", data: { stdout: "x".repeat(200_000), error: "" } } };
    const error = await failure(
      runPythonInSandbox({
        code: "x",
        inputs: {},
        settings: settingsFor(stub, { apiKey: "right-key" }),
        maxResponseBytes: 50_000,
      }),
    );
    expect(error.code).toBe("sandbox_invalid_result");
  });

  it("a result printed between other markers than this call's is not taken as the result", async () => {
    next = {
      status: 200,
      body: { code: 0, message: "success", data: { stdout: '<<RESULT>>{"a":1}<<RESULT>>\n', error: "" } },
    };
    const error = await failure(
      runPythonInSandbox({ code: "x", inputs: {}, settings: settingsFor(stub, { apiKey: "right-key" }) }),
    );
    expect(error.code).toBe("sandbox_invalid_result");
    expect(error.details?.logs).toEqual([{ level: "log", text: '<<RESULT>>{"a":1}<<RESULT>>' }]);
  });
});

describe("no sandbox at the address", () => {
  it("is sandbox_unavailable (retryable), naming where it looked", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const settings = pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: `http://127.0.0.1:${port}` })!;
    const error = await failure(runPythonInSandbox({ code: "x", inputs: {}, settings }));
    expect([error.code, error.retryable]).toEqual(["sandbox_unavailable", true]);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain("ECONNREFUSED");
  });
});

describe.skipIf(!python)("Python run through the dify-sandbox protocol", () => {
  let stub: DifySandboxStub;
  let legacy: DifySandboxStub;
  beforeAll(async () => {
    stub = await startDifySandboxStub({ python, networkAllowed: false });
    legacy = await startDifySandboxStub({ python, legacyShape: true });
  });
  afterAll(async () => {
    await stub.close();
    await legacy.close();
  });

  const run = (code: string, inputs: Record<string, unknown> = {}, on = stub) =>
    runPythonInSandbox({ code, inputs, settings: settingsFor(on) });

  it("calls main with the inputs as keyword arguments and returns its JSON; print() output is the log", async () => {
    const code = [
      "import json",
      "def main(text: str, items: list, limit: int) -> dict:",
      "    print('counting', len(items))",
      "    return {'upper': text.upper(), 'kept': items[:limit], 'nested': {'n': None, 'ok': True}}",
    ].join("\n");
    const result = await run(code, { text: "héllo ✓", items: [1, 2, 3], limit: 2 });
    expect(result.result).toEqual({ upper: "HÉLLO ✓", kept: [1, 2], nested: { n: null, ok: true } });
    expect(result.logs).toEqual([{ level: "log", text: "counting 3" }]);
  });

  it("an input that resolved to nothing arrives as None, not as a missing argument", async () => {
    expect(
      (await run("def main(a, b):\n    return {'a': a, 'b_is_none': b is None}\n", { a: 1, b: undefined })).result,
    ).toEqual({
      a: 1,
      b_is_none: true,
    });
  });

  it("works with sandboxes that answer only stdout and error", async () => {
    expect((await run("def main(a, b):\n    return {'sum': a + b}\n", { a: 2, b: 3 }, legacy)).result).toEqual({
      sum: 5,
    });
    const error = await failure(run("def main():\n    raise KeyError('gone')\n", {}, legacy));
    expect(error.code).toBe("sandbox_code_error");
    expect(error.message.split("\n")[0]).toBe("KeyError: 'gone'");
  });

  it("the code printing a result-looking line does not change the result", async () => {
    const code = "def main():\n    print('<<RESULT>>{\"forged\": true}<<RESULT>>')\n    return {'forged': False}\n";
    expect((await run(code)).result).toEqual({ forged: false });
  });

  it("an exception is sandbox_code_error, its last line first, without the runner's frames", async () => {
    const error = await failure(
      run("def main(n):\n    if n < 0:\n        raise ValueError('n must be positive')\n    return n\n", { n: -1 }),
    );
    expect(error.code).toBe("sandbox_code_error");
    expect(error.retryable).toBe(false);
    expect(error.message.split("\n")[0]).toBe("ValueError: n must be positive");
    expect(error.message).not.toContain("__trellis_run");
  });

  it("a value JSON cannot hold, a missing main and an early exit are errors, never a success", async () => {
    const set = await failure(run("def main():\n    return {'tags': {1, 2}}\n"));
    expect(set.message.split("\n")[0]).toBe("TypeError: Object of type set is not JSON serializable");
    const nan = await failure(run("def main():\n    return {'x': float('nan')}\n"));
    expect(nan.message.split("\n")[0]).toMatch(/^ValueError: Out of range float values are not JSON compliant/);
    const missing = await failure(run("def helper():\n    return 1\n"));
    expect(missing.message.split("\n")[0]).toBe(
      "The code defines no main function: define main(...) and return a value",
    );
    const exited = await failure(run("import sys\nprint('bye')\nsys.exit(0)\n"));
    expect(exited.code).toBe("sandbox_invalid_result");
    expect(exited.details?.logs).toEqual([{ level: "log", text: "bye" }]);
  });

  it("a sandbox that forbids the network refuses a call that asks for it", async () => {
    const error = await failure(
      runPythonInSandbox({
        code: "def main():\n    return 1\n",
        inputs: {},
        settings: settingsFor(stub, { network: true }),
      }),
    );
    expect(error.code).toBe("sandbox_rejected");
  });

  it("cancelling stops the call at once", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = runPythonInSandbox({
      code: "import time\ndef main():\n    time.sleep(4)\n    return 1\n",
      inputs: {},
      settings: settingsFor(stub),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("cancelled")), 100);
    await expect(pending).rejects.toThrow("cancelled");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("the python tool returns { result, logs } and a code error as a failed, non-retryable result", async () => {
    const tool = createPythonTool({ sandbox: settingsFor(stub) });
    expect(
      await tool.execute({ code: "def main(x):\n    return x * 2\n", inputs: { x: 21 } }, testContext()),
    ).toMatchObject({
      ok: true,
      content: { result: 42, logs: [] },
    });
    expect(await tool.execute({ code: "def main():\n    return 1 / 0\n" }, testContext())).toMatchObject({
      ok: false,
      retryable: false,
      error: { code: "sandbox_code_error", message: expect.stringMatching(/^ZeroDivisionError: division by zero/) },
    });
  });
});
