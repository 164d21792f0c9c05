/**
 * `npm run eval -- --workflow <slug> --dataset <file.jsonl|file.csv> -k 5 --base-url <url> --key <key>
 *   [--version latest|draft|<n>] [--concurrency 4] [--threshold 0.9] [--timeout 600] [--dataset-name <name>]`
 *
 * Sends the file's cases to `POST /api/v1/evaluations` (an API key with the `evaluate` scope),
 * waits for the result (polling after a 202), prints the JSON summary, and exits 1 when the
 * pass^k rate is under `--threshold`, 2 on a usage, file or request error.
 */
import fs from "node:fs";
import path from "node:path";
import { parseDatasetFile } from "../lib/evaluation/model/dataset-io";

/** Parsed command line. */
export interface EvalCliOptions {
  workflow: string;
  dataset: string;
  k: number;
  baseUrl: string;
  key: string;
  version: number | "latest" | "draft";
  concurrency: number;
  threshold: number | null;
  timeoutSeconds: number;
  datasetName?: string;
}

/** A usage mistake; exit code 2. */
export class EvalUsageError extends Error {}

const FLAG_NAMES: Record<string, keyof EvalCliOptions> = {
  "--workflow": "workflow",
  "--dataset": "dataset",
  "-k": "k",
  "--k": "k",
  "--base-url": "baseUrl",
  "--key": "key",
  "--version": "version",
  "--concurrency": "concurrency",
  "--threshold": "threshold",
  "--timeout": "timeoutSeconds",
  "--dataset-name": "datasetName",
};

function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new EvalUsageError(`${flag} must be a whole number ≥ 1, got "${value}"`);
  return number;
}

/** Reads the command line (flags also from TRELLIS_EVAL_BASE_URL and TRELLIS_API_KEY). */
export function parseEvalArguments(
  argv: string[],
  environment: Record<string, string | undefined> = process.env,
): EvalCliOptions {
  const raw: Partial<Record<keyof EvalCliOptions, string>> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes("=")
      ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)]
      : [argument, undefined];
    const name = FLAG_NAMES[flag];
    if (!name) throw new EvalUsageError(`Unknown argument "${argument}"`);
    const value = inline ?? argv[++index];
    if (value === undefined) throw new EvalUsageError(`${flag} needs a value`);
    raw[name] = value;
  }
  const baseUrl = raw.baseUrl ?? environment.TRELLIS_EVAL_BASE_URL;
  const key = raw.key ?? environment.TRELLIS_API_KEY;
  if (!raw.workflow) throw new EvalUsageError("--workflow <slug> is required");
  if (!raw.dataset) throw new EvalUsageError("--dataset <file.jsonl|file.csv> is required");
  if (!baseUrl) throw new EvalUsageError("--base-url (or TRELLIS_EVAL_BASE_URL) is required");
  if (!key) throw new EvalUsageError("--key (or TRELLIS_API_KEY) is required");
  let version: EvalCliOptions["version"] = "latest";
  if (raw.version)
    version =
      raw.version === "latest" || raw.version === "draft" ? raw.version : positiveInteger("--version", raw.version);
  let threshold: number | null = null;
  if (raw.threshold !== undefined) {
    threshold = Number(raw.threshold);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
      throw new EvalUsageError(`--threshold is a pass^k rate between 0 and 1, got "${raw.threshold}"`);
  }
  return {
    workflow: raw.workflow,
    dataset: raw.dataset,
    k: raw.k ? positiveInteger("-k", raw.k) : 5,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    key,
    version,
    concurrency: raw.concurrency ? positiveInteger("--concurrency", raw.concurrency) : 4,
    threshold,
    timeoutSeconds: raw.timeoutSeconds ? positiveInteger("--timeout", raw.timeoutSeconds) : 600,
    ...(raw.datasetName ? { datasetName: raw.datasetName } : {}),
  };
}

/** What the CLI prints: the server's summary plus the threshold verdict. */
export interface EvalCliResult {
  exitCode: number;
  output: unknown;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Runs the CLI; `fetch` and `readFile` are replaceable for tests. */
export async function runEvalCli(
  argv: string[],
  dependencies: {
    fetch?: Fetch;
    readFile?: (file: string) => string;
    environment?: Record<string, string | undefined>;
    pollMs?: number;
  } = {},
): Promise<EvalCliResult> {
  let options: EvalCliOptions;
  try {
    options = parseEvalArguments(argv, dependencies.environment);
  } catch (error) {
    return { exitCode: 2, output: { error: { code: "usage", message: (error as Error).message } } };
  }
  const read = dependencies.readFile ?? ((file: string) => fs.readFileSync(file, "utf8"));
  let text: string;
  try {
    text = read(options.dataset);
  } catch (error) {
    return { exitCode: 2, output: { error: { code: "dataset_unreadable", message: (error as Error).message } } };
  }
  const format = path.extname(options.dataset).toLowerCase() === ".csv" ? "csv" : "jsonl";
  const parsed = parseDatasetFile(format, text);
  if (!parsed.ok)
    return {
      exitCode: 2,
      output: { error: { code: "invalid_dataset", file: options.dataset, issues: parsed.issues } },
    };
  const fetcher = dependencies.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const headers = { authorization: `Bearer ${options.key}`, "content-type": "application/json" };
  let response = await fetcher(`${options.baseUrl}/api/v1/evaluations`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      workflow: options.workflow,
      version: options.version,
      cases: parsed.cases,
      k: options.k,
      concurrency: options.concurrency,
      timeout_seconds: options.timeoutSeconds,
      ...(options.datasetName ? { dataset_name: options.datasetName } : {}),
    }),
  });
  let body = (await response.json().catch(() => null)) as {
    status?: string;
    evaluationId?: string;
    totals?: { passHatKRate: number | null };
  } | null;
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  while (response.status === 202 && body?.evaluationId && body.status === "running" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, dependencies.pollMs ?? 2000));
    response = await fetcher(`${options.baseUrl}/api/v1/evaluations/${body.evaluationId}`, { headers });
    body = (await response.json().catch(() => null)) as typeof body;
  }
  if (!response.ok) return { exitCode: 2, output: body ?? { error: { code: "http_error", status: response.status } } };
  if (body?.status !== "succeeded") return { exitCode: 2, output: body };
  const rate = body.totals?.passHatKRate ?? 0;
  const passed = options.threshold === null || rate >= options.threshold;
  return { exitCode: passed ? 0 : 1, output: { ...body, threshold: options.threshold, passed } };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runEvalCli(process.argv.slice(2))
    .then((result) => {
      process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
      process.exit(result.exitCode);
    })
    .catch((error: unknown) => {
      process.stdout.write(
        `${JSON.stringify({ error: { code: "request_failed", message: (error as Error).message } })}\n`,
      );
      process.exit(2);
    });
}
