import { spawn, spawnSync } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stub received. */
export interface StubRequest {
  apiKey: string | undefined;
  body: { language?: string; code?: string; preload?: string; enable_network?: boolean };
}

/** A canned answer instead of running the code. */
export interface StubAnswer {
  status: number;
  body?: unknown;
}

/** Options for {@link startDifySandboxStub}. */
export interface DifySandboxStubOptions {
  /** The sandbox's `app.key`; default `dify-sandbox`. */
  key?: string;
  /** The sandbox's `enable_network`; default true (dify-sandbox's shipped config). */
  networkAllowed?: boolean;
  /** Python that runs the code; without it every run needs `answer`. */
  python?: string;
  /** Answer shape of sandboxes before 0.2.11 (`data` has only `stdout` and `error`). */
  legacyShape?: boolean;
  /** Seconds a run may take (dify-sandbox's `worker_timeout`, default 5). */
  workerTimeoutSeconds?: number;
  /** Decides the answer for a request; return undefined to run the code. */
  answer?: (request: StubRequest) => StubAnswer | undefined;
  /** Port on 127.0.0.1; default any free one. */
  port?: number;
}

/** A running stub. */
export interface DifySandboxStub {
  /** Base URL (what TRELLIS_CODE_SANDBOX_URL holds). */
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

/**
 * The Python the tests run code with: TRELLIS_TEST_PYTHON, else `python3`, when it runs and has
 * the given modules (dify-sandbox's image has jinja2, requests and httpx).
 */
export function findTestPython(modules: string[] = []): string | undefined {
  for (const candidate of [process.env.TRELLIS_TEST_PYTHON, "python3"]) {
    if (!candidate) continue;
    // The interpreter's own path: the stub runs it with an empty environment, where `python3`
    // would be looked up on a default PATH and could be another Python.
    const probe = spawnSync(
      candidate,
      ["-c", `import json, base64, sys${modules.map((name) => `, ${name}`).join("")}; print(sys.executable)`],
      { encoding: "utf8", timeout: 10_000 },
    );
    if (probe.status === 0 && probe.stdout.trim()) return probe.stdout.trim();
  }
  return undefined;
}

/**
 * A stand-in for dify-sandbox (github.com/langgenius/dify-sandbox) on 127.0.0.1, speaking its
 * protocol as that repository defines it: `POST /v1/sandbox/run` with `X-Api-Key` (a wrong key
 * gets a bare 401), `{ language, code, preload, enable_network }` in, and
 * `{ code: 0, message: "success", data: { stdout, stderr, error, exit_code } }` out, errors as
 * `{ code: <negative>, message }`. It runs the code with a plain Python: it stands for the
 * protocol, not for the seccomp jail, and listens on loopback only.
 */
export async function startDifySandboxStub(options: DifySandboxStubOptions = {}): Promise<DifySandboxStub> {
  const key = options.key ?? "dify-sandbox";
  const requests: StubRequest[] = [];
  const server: Server = createServer(async (incoming, outgoing) => {
    const send = (status: number, body?: unknown) => {
      if (body === undefined) {
        outgoing.writeHead(status).end();
        return;
      }
      const text = typeof body === "string" ? body : JSON.stringify(body);
      outgoing.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(text);
    };
    if (incoming.method === "GET" && incoming.url === "/health") return send(200, "ok");
    if (incoming.method !== "POST" || incoming.url !== "/v1/sandbox/run") return send(404, "404 page not found");
    const apiKey = header(incoming, "x-api-key");
    if (apiKey !== key) return send(401);
    let body: StubRequest["body"];
    try {
      body = JSON.parse(await readBody(incoming));
    } catch {
      return send(400, { code: -400, message: "invalid request" });
    }
    const request = { apiKey, body };
    requests.push(request);
    const canned = options.answer?.(request);
    if (canned) return send(canned.status, canned.body);
    if (body.language !== "python3" && body.language !== "nodejs") {
      return send(400, { code: -400, message: "unsupported language" });
    }
    if (body.enable_network && options.networkAllowed === false) {
      return send(200, { code: -400, message: "network is disabled, please enable it in the configuration" });
    }
    if (!options.python || body.language !== "python3") {
      return send(200, { code: -500, message: "no runner for this language in the stub" });
    }
    const run = await runPython(options.python, body.code ?? "", (options.workerTimeoutSeconds ?? 5) * 1000);
    const error = run.exitCode === 0 ? "" : `process exited with code ${run.exitCode}\n${run.stderr}`;
    send(200, {
      code: 0,
      message: "success",
      data: options.legacyShape
        ? { stdout: run.stdout, error }
        : { stdout: run.stdout, stderr: run.stderr, error, exit_code: run.exitCode },
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function runPython(
  python: string,
  code: string,
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return new Promise((resolve) => {
    // `-I`: isolated mode (no user site, no PYTHON* variables), as the sandbox's own interpreter.
    const child = spawn(python, ["-I", "-"], { stdio: ["pipe", "pipe", "pipe"], env: {} as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      stderr += "error: timeout\n";
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, exitCode: status ?? -1 });
    });
    child.stdin.end(code);
  });
}
