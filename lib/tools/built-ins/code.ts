import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define-tool";
import { DEFAULT_SANDBOX_LIMITS, runSandboxedCode, type SandboxLimits } from "../sandbox/run-sandboxed-code";

/** Options for {@link createCodeTool}. */
export type CodeToolOptions = SandboxLimits;

/**
 * `code({ code, inputs? })`: runs JavaScript in the QuickJS sandbox and returns
 * `{ result, logs }`. Read-only: sandboxed code has no I/O at all.
 */
export function createCodeTool(options: CodeToolOptions = {}): ToolDefinition {
  const cpuLimitMs = options.cpuLimitMs ?? DEFAULT_SANDBOX_LIMITS.cpuLimitMs;
  return defineTool({
    name: "code",
    description:
      "Run JavaScript (ES2023, no network, no files, no modules) and return its result. Define `function main(inputs) { ... }` and return a JSON value, or end the script with an expression. `inputs` holds the given inputs; console.log output is returned as logs.",
    parameters: z.object({
      code: z.string().min(1).max(100_000).describe("JavaScript source"),
      inputs: z.record(z.string(), z.unknown()).optional().describe("Values passed to main(inputs)"),
    }),
    readOnly: true,
    // Above the sandbox's own watchdog so the sandbox's precise error wins over a generic timeout.
    timeoutMs: cpuLimitMs + 10_000,
    execute: async ({ code, inputs }, context) => {
      const run = await runSandboxedCode({
        ...options,
        // A workflow node keeps results up to its value limit; agents get the sandbox's own cap.
        ...(context.outputLimitBytes
          ? { maxResultBytes: Math.max(options.maxResultBytes ?? 0, context.outputLimitBytes) }
          : {}),
        code,
        inputs: inputs ?? {},
        signal: context.signal,
      });
      return { result: run.result, logs: run.logs };
    },
  });
}
