import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { readCappedText } from "../http/read-capped";
import type { SandboxLogEntry } from "./run-sandboxed-code";
import { SandboxError } from "./sandbox-error";

/**
 * Where Python runs. Trellis does not run Python in its own process: there is no sandbox for it
 * here that holds (Pyodide's JavaScript bridge reaches the host). It sends the code to a code
 * sandbox service speaking dify-sandbox's protocol (`POST /v1/sandbox/run`, `X-Api-Key`), the
 * service Dify itself runs Python on, so a self-hoster can point Trellis at the one they have.
 */
export interface PythonSandboxSettings {
  /** Absolute URL of the run endpoint (`<base>/v1/sandbox/run`). */
  runUrl: string;
  /** Sent as `X-Api-Key` (the sandbox's `app.key`). */
  apiKey: string;
  /** Sent as `enable_network`: whether the code may open sockets (the sandbox must allow it too). */
  network: boolean;
}

/** dify-sandbox's shipped `app.key`; Dify's `CODE_EXECUTION_API_KEY` defaults to it too. */
export const DEFAULT_SANDBOX_API_KEY = "dify-sandbox";

/**
 * The Python sandbox settings from `TRELLIS_CODE_SANDBOX_URL` (the sandbox's base URL, e.g.
 * `http://sandbox:8194`), `TRELLIS_CODE_SANDBOX_KEY` and `TRELLIS_CODE_SANDBOX_NETWORK` (`on`
 * lets code use the network; off by default). Null when no sandbox is configured.
 * @throws SandboxError `sandbox_not_configured` when the URL is set but is not an http(s) URL.
 */
export function pythonSandboxFromEnvironment(
  environment: Record<string, string | undefined> = process.env,
): PythonSandboxSettings | null {
  const raw = environment.TRELLIS_CODE_SANDBOX_URL?.trim();
  if (!raw) return null;
  let base: URL;
  try {
    base = new URL(raw);
  } catch {
    throw new SandboxError("sandbox_not_configured", `TRELLIS_CODE_SANDBOX_URL is not a URL: "${raw}"`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new SandboxError("sandbox_not_configured", `TRELLIS_CODE_SANDBOX_URL must be an http(s) URL, not "${raw}"`);
  }
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return {
    runUrl: new URL("v1/sandbox/run", base).href,
    apiKey: environment.TRELLIS_CODE_SANDBOX_KEY?.trim() || DEFAULT_SANDBOX_API_KEY,
    network: environment.TRELLIS_CODE_SANDBOX_NETWORK?.trim().toLowerCase() === "on",
  };
}

/** Input for {@link runPythonInSandbox}. */
export interface PythonRunRequest {
  /** Python 3 source that defines `main(**inputs)`. */
  code: string;
  /** JSON values passed to `main` as keyword arguments. */
  inputs: Record<string, unknown>;
  settings: PythonSandboxSettings;
  signal?: AbortSignal;
  /** Largest answer read from the sandbox, in bytes; default 4 MiB. */
  maxResponseBytes?: number;
  /** Printed output kept, in characters; default 16 KiB. */
  maxLogBytes?: number;
}

/** `main`'s return value and what the code printed. */
export interface PythonRunResult {
  result: unknown;
  logs: SandboxLogEntry[];
}

/** dify-sandbox's answer (internal/types/response.go, internal/service/run_code.go). */
const sandboxAnswerSchema = z.looseObject({
  code: z.number(),
  message: z.string().nullish(),
  data: z
    .looseObject({
      stdout: z.string().nullish(),
      // Sandboxes before 0.2.11 answer only `stdout` and `error`.
      stderr: z.string().nullish(),
      error: z.string().nullish(),
      exit_code: z.number().nullish(),
    })
    .nullish(),
});

const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_LOG_BYTES = 16 * 1024;

/**
 * The script sent to the sandbox: the user's code, then a call of `main` with the inputs and the
 * result printed as JSON between markers. The marker is random per call, so nothing the code
 * prints can pass for the result. Inputs travel as base64 so no value can break the source.
 */
export function pythonRunnerScript(code: string, inputs: Record<string, unknown>, marker: string): string {
  // An input that resolved to nothing is None, as in Dify: JSON would drop the key, and main()
  // would then miss an argument.
  const present = Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, value ?? null]));
  const encoded = Buffer.from(JSON.stringify(present), "utf8").toString("base64");
  return [
    code,
    "",
    "def __trellis_run():",
    "    import json, sys",
    "    from base64 import b64decode",
    `    inputs = json.loads(b64decode("${encoded}").decode("utf-8"))`,
    '    entry = globals().get("main")',
    "    if not callable(entry):",
    '        raise SystemExit("The code defines no main function: define main(...) and return a value")',
    "    output = entry(**inputs)",
    "    text = json.dumps(output, ensure_ascii=False, allow_nan=False)",
    `    sys.stdout.write("\\n${marker}" + text + "${marker}\\n")`,
    "    sys.stdout.flush()",
    "",
    "__trellis_run()",
    "",
  ].join("\n");
}

/**
 * Runs Python on the configured sandbox and returns `main`'s JSON result.
 * @throws SandboxError: `sandbox_unavailable` (cannot be reached, busy; retryable),
 * `sandbox_rejected` (the sandbox refused the request: key, network setting), `sandbox_code_error`
 * (the code raised; the traceback is the message), `sandbox_invalid_result` (no result, not JSON,
 * answer too large).
 */
export async function runPythonInSandbox(request: PythonRunRequest): Promise<PythonRunResult> {
  const { settings } = request;
  const marker = `<<TRELLIS_RESULT_${randomBytes(12).toString("hex")}>>`;
  const where = new URL(settings.runUrl).origin;
  let response: Response;
  try {
    response = await fetch(settings.runUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": settings.apiKey },
      body: JSON.stringify({
        language: "python3",
        code: pythonRunnerScript(request.code, request.inputs, marker),
        preload: "",
        enable_network: settings.network,
      }),
      signal: request.signal,
      redirect: "error",
    });
  } catch (thrown) {
    if (request.signal?.aborted) throw thrown;
    throw new SandboxError(
      "sandbox_unavailable",
      `The code sandbox at ${where} cannot be reached: ${describeFetchError(thrown)}`,
    );
  }
  const limit = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const text = await readCappedText(response.body, limit);
  if (text === null) {
    throw new SandboxError(
      "sandbox_invalid_result",
      `The code sandbox's answer is larger than ${limit} bytes (the code printed or returned too much)`,
    );
  }
  if (response.status === 401 || response.status === 403) {
    throw new SandboxError(
      "sandbox_rejected",
      `The code sandbox at ${where} refused the API key (HTTP ${response.status}); check TRELLIS_CODE_SANDBOX_KEY`,
    );
  }
  const answer = parseAnswer(text);
  if (response.status !== 200 || !answer || answer.code !== 0) {
    const said = answer?.message ? `: ${answer.message}` : text.trim() ? `: ${text.trim().slice(0, 300)}` : "";
    // 503 and -503: too many requests; -429: no free sandbox user. Both pass.
    const busy = response.status === 503 || response.status === 429 || answer?.code === -503 || answer?.code === -429;
    if (busy || response.status >= 500) {
      throw new SandboxError(
        "sandbox_unavailable",
        `The code sandbox at ${where} is busy or failing (HTTP ${response.status}${answer ? `, code ${answer.code}` : ""})${said}`,
      );
    }
    throw new SandboxError(
      "sandbox_rejected",
      `The code sandbox at ${where} refused the request (HTTP ${response.status}${answer ? `, code ${answer.code}` : ""})${said}`,
    );
  }
  const data = answer.data ?? {};
  const stdout = data.stdout ?? "";
  const end = stdout.lastIndexOf(marker);
  const start = end > 0 ? stdout.lastIndexOf(marker, end - 1) : -1;
  const printed = start >= 0 ? `${stdout.slice(0, start)}${stdout.slice(end + marker.length)}` : stdout;
  const logs = toLogs(printed, data.stderr ?? "", request.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES);
  if (data.error) {
    throw new SandboxError("sandbox_code_error", describeCodeError(data.error), { logs });
  }
  if (start < 0) {
    throw new SandboxError(
      "sandbox_invalid_result",
      "The code ended without returning a result: define main(...) and let it return (exit() and os._exit() end it early)",
      { logs },
    );
  }
  const json = stdout.slice(start + marker.length, end);
  try {
    return { result: JSON.parse(json), logs };
  } catch (thrown) {
    throw new SandboxError("sandbox_invalid_result", `The result is not JSON: ${(thrown as Error).message}`, { logs });
  }
}

function parseAnswer(text: string): z.output<typeof sandboxAnswerSchema> | null {
  try {
    const parsed = sandboxAnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A traceback names our runner's frames too; the message keeps the user's part. The last line
 * ("ValueError: …") comes first, since it is what one needs to read.
 */
function describeCodeError(error: string): string {
  const lines = error.trimEnd().split("\n");
  const last = lines.findLast((line) => line.trim() !== "") ?? error;
  const kept = lines.filter((line) => !line.includes("__trellis_run"));
  return kept.length > 1 ? `${last.trim()}\n${kept.join("\n")}` : last.trim();
}

function toLogs(stdout: string, stderr: string, maxLogBytes: number): SandboxLogEntry[] {
  const logs: SandboxLogEntry[] = [];
  let left = maxLogBytes;
  for (const [level, text] of [
    ["log", stdout.replace(/^\n+|\n+$/g, "")],
    ["error", stderr.trimEnd()],
  ] as const) {
    if (!text || left <= 0) continue;
    const kept = text.length > left ? `${text.slice(0, left)}… (cut at ${maxLogBytes} characters)` : text;
    left -= text.length;
    logs.push({ level, text: kept });
  }
  return logs;
}

function describeFetchError(thrown: unknown): string {
  const cause = (thrown as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  return cause?.message ?? (thrown instanceof Error ? thrown.message : String(thrown));
}
