import type { StartConfig } from "../../workflow/nodes/start";
import { checkRunInputs } from "../../workflow/run-inputs";
import { InvalidInputError } from "../errors/invalid-input-error";
import type { NodeExecutor } from "../executor";

/**
 * Checks the run inputs against the declared inputs (the same check the run service makes before
 * a run exists) and applies defaults. Only declared inputs become outputs, so undeclared request
 * fields cannot leak into templates.
 */
export const startExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as StartConfig;
  const runInputs = context.runInputs ?? {};
  const checked = checkRunInputs(config, runInputs);
  if (!checked.ok) {
    const first = checked.issues[0]!;
    throw new InvalidInputError(first.field, checked.issues.map((issue) => issue.message).join(" "));
  }
  return { outputs: checked.values, inputs: runInputs };
};
