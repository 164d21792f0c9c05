import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define-tool";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { CALCULATOR_TIME_LIMIT_MS, evaluateExpression } from "./calculator-worker";

/** Longest expression accepted. */
const MAX_EXPRESSION_LENGTH = 1000;

/**
 * `calculator({ expression })`: evaluates math with mathjs's parser in a restricted instance
 * inside a worker thread (never `eval`/`Function`). Read-only.
 */
export function createCalculatorTool(): ToolDefinition {
  return defineTool({
    name: "calculator",
    description:
      'Evaluate a math expression, e.g. "(17.4 - 3) * 2", "sqrt(16)", "100 * 1.0842", "5 km to mile". Variables and functions can be defined with ";" between statements.',
    parameters: z.object({ expression: z.string().min(1).max(MAX_EXPRESSION_LENGTH).describe("The expression") }),
    readOnly: true,
    // Room for a cold worker start (mathjs loads in about a second) on top of the calculation limit.
    timeoutMs: CALCULATOR_TIME_LIMIT_MS + 13_000,
    execute: async ({ expression }, context) => {
      try {
        return { expression, result: await evaluateExpression(expression, context.signal) };
      } catch (error) {
        if (error instanceof ToolExecutionError && error.code === "invalid_expression") {
          throw new ToolExecutionError("invalid_expression", `Cannot evaluate "${expression}": ${error.message}`);
        }
        throw error;
      }
    },
  });
}
