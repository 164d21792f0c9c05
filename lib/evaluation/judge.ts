import "server-only";
import { z } from "zod";
import type { ModelResolver } from "../llm/language-model";
import type { CheckResult } from "./checks/check-result";
import { asText, outputValue } from "./checks/output-checks";
import type { JudgeFunction } from "./checks/run-checks";
import type { CheckOf } from "./model/check-spec";

const verdictSchema = z.object({ score: z.number().min(0).max(1), reason: z.string().default("") });

const SYSTEM_PROMPT =
  'You grade an AI workflow\'s answer against a rubric. Reply with JSON only: {"score": <0..1>, "reason": "<one or two sentences>"}.';

/**
 * LLM-as-judge through lib/llm: the configured model grades the output against the rubric. The
 * offline demo model is never used silently: unless the check allows it, a reference that resolves
 * to it fails the check. The call's cost is returned on the result and counted in the trial.
 */
export function createJudge(models: ModelResolver, options: { timeoutMs?: number } = {}): JudgeFunction {
  return async (check: CheckOf<"judge">, record): Promise<CheckResult> => {
    const fail = (reason: string, cost = 0): CheckResult => ({
      name: check.name,
      kind: check.kind,
      passed: false,
      reason,
      cost,
    });
    let model: Awaited<ReturnType<ModelResolver["resolve"]>>;
    try {
      model = await models.resolve(check.model);
    } catch (error) {
      return fail(
        `The judge model ${check.model.provider}/${check.model.model} is not available: ${(error as Error).message}`,
      );
    }
    if (model.isDemo && !check.allowDemoModel)
      return fail(
        "The judge model resolves to the offline demo model; configure a provider for it, or set allowDemoModel to grade with the demo model on purpose.",
      );
    const answer = asText(outputValue(record.outputs, check.field).value);
    try {
      const response = await model.generate({
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: `Rubric:\n${check.rubric}\n\nAnswer to grade:\n${answer}` },
        ],
        temperature: 0,
        responseFormat: model.profile.jsonMode ? { type: "json_object" } : undefined,
        timeoutMs: options.timeoutMs ?? 60_000,
      });
      const text = response.text.replace(/^```(?:json)?\s*|\s*```$/g, "");
      let parsed: z.infer<typeof verdictSchema>;
      try {
        parsed = verdictSchema.parse(JSON.parse(text));
      } catch {
        return fail(`The judge's reply is not {"score", "reason"} JSON: ${text.slice(0, 120)}`, response.cost);
      }
      const passed = parsed.score >= check.passScore;
      return {
        name: check.name,
        kind: check.kind,
        passed,
        reason: `Score ${parsed.score} (pass ≥ ${check.passScore})${parsed.reason ? `: ${parsed.reason}` : "."}`,
        cost: response.cost,
      };
    } catch (error) {
      return fail(`The judge call failed: ${(error as Error).message}`);
    }
  };
}
