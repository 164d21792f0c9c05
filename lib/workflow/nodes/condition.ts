import { z } from "zod";
import type { MissingInput, VariableUsage } from "../node-definition";
import { countOf, templateOrSelectorSchema, usageOf } from "./common-schemas";
import { CONDITION_OPERATORS, UNARY_OPERATORS } from "./condition-operators";
import { defineNode } from "./define-node";
import { FAIL_PORT_ID, policyShape } from "./policy";

/** Handle id of the branch taken when no case matches. */
export const ELSE_PORT_ID = "else";

/** One comparison; `right` is a template (or a literal) and is ignored by unary operators. */
export const conditionSchema = z.object({
  left: templateOrSelectorSchema.default(""),
  operator: z.enum(CONDITION_OPERATORS),
  right: z.union([z.string(), z.number(), z.boolean()]).optional(),
});

/** One branch: its comparisons joined by `logic`. */
export const conditionCaseSchema = z.object({
  /** Saved as the edge's sourceHandle, so it must stay stable when the label changes. */
  id: z.string().min(1),
  label: z.string().default(""),
  logic: z.enum(["and", "or"]).default("and"),
  conditions: z.array(conditionSchema).default(() => []),
});

/** Config of the condition node: cases tried in order, then `else`. */
export const conditionConfigSchema = z
  .object({ ...policyShape, cases: z.array(conditionCaseSchema).default(() => []) })
  .superRefine((config, context) => {
    const seen = new Set<string>();
    config.cases.forEach((conditionCase, index) => {
      const path = ["cases", index, "id"];
      if (conditionCase.id === ELSE_PORT_ID || conditionCase.id === FAIL_PORT_ID) {
        context.addIssue({ code: "custom", message: `"${conditionCase.id}" is reserved for a built-in branch`, path });
      } else if (seen.has(conditionCase.id)) {
        context.addIssue({ code: "custom", message: `Duplicate case id "${conditionCase.id}"`, path });
      }
      seen.add(conditionCase.id);
      conditionCase.conditions.forEach((condition, conditionIndex) => {
        const pattern = condition.right;
        // A templated pattern is only known at run time; a literal one is checked now.
        if (condition.operator !== "matches-regex" || typeof pattern !== "string" || pattern.includes("{{")) return;
        try {
          new RegExp(pattern);
        } catch {
          context.addIssue({
            code: "custom",
            message: `Invalid regular expression: ${pattern}`,
            path: ["cases", index, "conditions", conditionIndex, "right"],
          });
        }
      });
    });
  });

/** Parsed condition config. */
export type ConditionConfig = z.output<typeof conditionConfigSchema>;

/** Routes the run down the first matching case, or `else`. */
export const conditionNode = defineNode<ConditionConfig>({
  type: "condition",
  label: "Condition",
  description: "Chooses a branch by comparing values.",
  category: "logic",
  configSchema: conditionConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    cases: [{ id: "case-1", label: "If", logic: "and", conditions: [] }],
  }),
  hasInput: true,
  outputPorts: (config) => [
    ...config.cases.map((conditionCase, index) => ({
      id: conditionCase.id,
      label: conditionCase.label || (index === 0 ? "If" : `Else if ${index}`),
    })),
    { id: ELSE_PORT_ID, label: "Else" },
  ],
  outputFields: () => [{ name: "branch", type: "string", description: "The id of the case taken, or else" }],
  summarize: (config) => `${countOf(config.cases.length, "case")} + else`,
  variableUsages: (config) =>
    config.cases.flatMap((conditionCase, caseIndex) =>
      conditionCase.conditions.flatMap((condition, conditionIndex): (VariableUsage | undefined)[] => {
        const path = ["cases", caseIndex, "conditions", conditionIndex];
        return [
          usageOf([...path, "left"], condition.left),
          typeof condition.right === "string" ? usageOf([...path, "right"], condition.right) : undefined,
        ];
      }),
    ),
  findMissingInputs: (config) => {
    if (config.cases.length === 0) return [{ path: ["cases"], message: "Add at least one case" }];
    return config.cases.flatMap((conditionCase, caseIndex): MissingInput[] => {
      if (conditionCase.conditions.length === 0) {
        return [{ path: ["cases", caseIndex, "conditions"], message: "Add a condition to this case" }];
      }
      return conditionCase.conditions.flatMap((condition, conditionIndex): MissingInput[] => {
        const path = ["cases", caseIndex, "conditions", conditionIndex];
        const missing: MissingInput[] = [];
        const left = condition.left;
        if (typeof left === "string" ? left.trim() === "" : left.length === 0) {
          missing.push({ path: [...path, "left"], message: "Choose the value to compare" });
        }
        const right = condition.right;
        if (!UNARY_OPERATORS.has(condition.operator) && (right === undefined || right === "")) {
          missing.push({ path: [...path, "right"], message: "Set the value to compare against" });
        }
        return missing;
      });
    });
  },
});
