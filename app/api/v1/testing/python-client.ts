/**
 * Test support: runs one of the Python client scripts of this folder with the Python that
 * `npm test` installed the official `openai` and `mcp` SDKs into (scripts/python-sdks.sh, passed in
 * TRELLIS_TEST_PYTHON), and parses the one JSON object it prints.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/** The Python with the SDKs; undefined where they could not be installed (the tests are skipped). */
export const python = process.env.TRELLIS_TEST_PYTHON;

/** Runs `script` (a file of this folder) with `env` added, and returns what it printed, parsed. */
export async function runPythonClient<T>(script: string, env: Record<string, string>): Promise<T> {
  if (!python) throw new Error("TRELLIS_TEST_PYTHON is not set (bash scripts/python-sdks.sh prints it)");
  const { stdout } = await promisify(execFile)(python, [path.join(import.meta.dirname, script)], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as T;
}
