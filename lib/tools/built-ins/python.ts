import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define-tool";
import {
  type PythonSandboxSettings,
  pythonSandboxFromEnvironment,
  runPythonInSandbox,
} from "../sandbox/python-sandbox";
import { SandboxError } from "../sandbox/sandbox-error";

/** Options for {@link createPythonTool}. */
export interface PythonToolOptions {
  /** Where Python runs; default: read from the environment at each call (TRELLIS_CODE_SANDBOX_URL). */
  sandbox?: PythonSandboxSettings | null;
}

/** Time for one Python run: dify-sandbox's own worker timeout is 5 s, plus waiting for a free worker. */
export const PYTHON_TOOL_TIMEOUT_MS = 60_000;

/**
 * `python({ code, inputs? })`: runs Python 3 on the code sandbox service and returns
 * `{ result, logs }`, like `code` does for JavaScript. Without a configured sandbox it fails with
 * `sandbox_not_configured`, saying which setting to set.
 */
export function createPythonTool(options: PythonToolOptions = {}): ToolDefinition {
  return defineTool({
    name: "python",
    description:
      "Run Python 3 on the code sandbox service and return its result. Define `def main(**inputs)` (or name the inputs as parameters) and return a JSON value; print() output is returned as logs.",
    parameters: z.object({
      code: z.string().min(1).max(100_000).describe("Python 3 source defining main"),
      inputs: z.record(z.string(), z.unknown()).optional().describe("Values passed to main as keyword arguments"),
    }),
    readOnly: true,
    timeoutMs: PYTHON_TOOL_TIMEOUT_MS,
    execute: async ({ code, inputs }, context) => {
      const settings = options.sandbox === undefined ? pythonSandboxFromEnvironment() : options.sandbox;
      if (!settings) {
        throw new SandboxError(
          "sandbox_not_configured",
          "Python runs on a code sandbox service, and none is configured: set TRELLIS_CODE_SANDBOX_URL to a dify-sandbox (and TRELLIS_CODE_SANDBOX_KEY to its key)",
        );
      }
      const limit = context.outputLimitBytes ?? 1024 * 1024;
      const run = await runPythonInSandbox({
        code,
        inputs: inputs ?? {},
        settings,
        signal: context.signal,
        // The result travels as JSON inside the sandbox's JSON answer: allow for the escaping.
        maxResponseBytes: 2 * limit + 1024 * 1024,
      });
      return { result: run.result, logs: run.logs };
    },
  });
}
