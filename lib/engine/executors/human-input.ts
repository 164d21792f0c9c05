import "server-only";
import type { HumanInputConfig } from "../../workflow/nodes/human-input";
import { NodeExecutionError } from "../errors";
import { HumanInputTimeoutError } from "../errors/human-input-timeout-error";
import type { NodeExecutor } from "../executor";
import { validateAnswer } from "./human-input-answer";

/**
 * First attempt: asks the question (`wait`), which parks the run in `waiting`. When `resumeRun`
 * continues the run, the node runs again with `context.resume`: the validated answer becomes its
 * outputs, and a timed-out wait uses the configured fallback (default values, or a failure that
 * the node's error strategy handles).
 */
export const humanInputExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as HumanInputConfig;
  const fields = config.fields ?? [];
  const resume = context.resume;
  if (!resume) {
    const timeoutMs = context.node.policy.timeoutMs;
    return {
      outputs: {},
      wait: {
        prompt: context.render(config.prompt ?? ""),
        fields,
        timeoutAt: timeoutMs !== undefined ? Date.now() + timeoutMs : undefined,
      },
    };
  }
  if (resume.timedOut || resume.answer === null) {
    if (config.fallback === "default") {
      return { outputs: { ...config.defaultValues }, processData: { timedOut: true } };
    }
    throw new HumanInputTimeoutError();
  }
  const checked = validateAnswer(fields, resume.answer);
  if (!checked.ok) throw new NodeExecutionError("invalid_answer", checked.problem.message);
  return { outputs: checked.values, inputs: resume.answer, processData: { answeredAt: Date.now() } };
};
