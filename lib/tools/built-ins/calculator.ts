import { all, create } from "mathjs";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define-tool";
import { ToolExecutionError } from "../errors/tool-execution-error";

/**
 * A mathjs instance with the functions that can reach beyond plain arithmetic disabled, as the
 * mathjs security guide recommends: `import`, `createUnit`, `evaluate`, `parse`, `simplify`,
 * `derivative`, `resolve`, `compile`, `reviver`. Our own `evaluate` reference is taken first.
 */
const math = create(all);
const evaluateExpression = math.evaluate.bind(math);
const disabled = () => {
  throw new Error("Function is disabled in the calculator");
};
math.import(
  {
    import: disabled,
    createUnit: disabled,
    evaluate: disabled,
    parse: disabled,
    simplify: disabled,
    derivative: disabled,
    resolve: disabled,
    compile: disabled,
    reviver: disabled,
  },
  { override: true },
);

/** Longest expression accepted; long inputs are how parser-based DoS attempts look. */
const MAX_EXPRESSION_LENGTH = 1000;

function toPlain(value: unknown): unknown {
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return value;
  // Matrices, units, fractions and big numbers print in mathjs's own notation.
  return math.format(value, { precision: 14 });
}

/** `calculator({ expression })`: evaluates arithmetic with a real parser (never eval). Read-only. */
export function createCalculatorTool(): ToolDefinition {
  return defineTool({
    name: "calculator",
    description: 'Evaluate a math expression, e.g. "(17.4 - 3) * 2", "sqrt(16)", "10 % of 250", "5 km to mile".',
    parameters: z.object({ expression: z.string().min(1).max(MAX_EXPRESSION_LENGTH).describe("The expression") }),
    readOnly: true,
    timeoutMs: 2_000,
    execute: ({ expression }) => {
      let result: unknown;
      try {
        result = evaluateExpression(expression);
      } catch (error) {
        throw new ToolExecutionError(
          "invalid_expression",
          `Cannot evaluate "${expression}": ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (typeof result === "function" || result === undefined) {
        throw new ToolExecutionError("invalid_expression", `"${expression}" does not evaluate to a value`);
      }
      if (
        typeof result === "object" &&
        result !== null &&
        "entries" in result &&
        Array.isArray((result as { entries: unknown }).entries)
      ) {
        // Multi-line input returns a ResultSet; the last expression is the answer.
        const entries = (result as { entries: unknown[] }).entries;
        return { expression, result: toPlain(entries[entries.length - 1]) };
      }
      return { expression, result: toPlain(result) };
    },
  });
}
