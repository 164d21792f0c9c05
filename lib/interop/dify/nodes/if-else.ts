import { z } from "zod";
import { ELSE_PORT_ID } from "../../../workflow/nodes/condition";
import type { ConditionOperator } from "../../../workflow/nodes/condition-operators";
import { FAIL_PORT_ID } from "../../../workflow/nodes/policy";
import type { MapContext, NodeMapper } from "../context";
import { templateOf } from "../references";
import { readData, trellisNode } from "./shared";

/** Condition (utils/condition/entities.py) as the web app saves it (nodes/if-else/types.ts). */
const conditionSchema = z.looseObject({
  variable_selector: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  comparison_operator: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown())]).nullish(),
  varType: z.string().nullish(),
  value_type: z.string().nullish(),
  value_selector: z.array(z.string()).nullish(),
  sub_variable_condition: z.unknown().optional(),
});

const caseSchema = z.looseObject({
  case_id: z.union([z.string(), z.number()]).transform(String),
  logical_operator: z.enum(["and", "or"]).default("and"),
  conditions: z.array(conditionSchema).default([]),
});

/** IfElseNodeData (nodes/if_else/entities.py): `cases`, or the deprecated single `conditions` list (handle `true`). */
const ifElseDataSchema = z.looseObject({
  cases: z.array(caseSchema).nullish(),
  logical_operator: z.enum(["and", "or"]).nullish(),
  conditions: z.array(conditionSchema).nullish(),
});

type DifyCondition = z.output<typeof conditionSchema>;

const SAME: Record<string, ConditionOperator> = {
  contains: "contains",
  "not contains": "not-contains",
  "start with": "starts-with",
  "end with": "ends-with",
  empty: "is-empty",
  "not empty": "is-not-empty",
  "=": "=",
  "≠": "≠",
  ">": ">",
  "<": "<",
  "≥": "≥",
  "≤": "≤",
};

const APPROXIMATE: Record<string, ConditionOperator> = {
  null: "is-empty",
  "is null": "is-empty",
  "not null": "is-not-empty",
  "is not null": "is-not-empty",
  exists: "is-not-empty",
  "not exists": "is-empty",
};

/** Case ids become handles; the built-in handle names are escaped. */
export function caseHandle(caseId: string): string {
  return caseId === ELSE_PORT_ID || caseId === FAIL_PORT_ID ? `case-${caseId}` : caseId;
}

class UnsupportedCondition extends Error {}

function mapCondition(condition: DifyCondition, context: MapContext) {
  if (condition.sub_variable_condition)
    throw new UnsupportedCondition("conditions on file attributes have no equivalent");
  const left = context.selector(condition.variable_selector);
  const dify = condition.comparison_operator;
  const isNumber = condition.varType === "number";
  const isBoolean = condition.varType === "boolean";
  let operator: ConditionOperator | undefined = SAME[dify];
  if (!operator && (dify === "is" || dify === "is not")) {
    if (isBoolean) {
      const truthy = String(condition.value) === "true";
      return { left, operator: (truthy === (dify === "is") ? "is-true" : "is-false") as ConditionOperator };
    }
    operator = isNumber ? (dify === "is" ? "=" : "≠") : dify === "is" ? "equals" : "not-equals";
  }
  if (!operator && APPROXIMATE[dify]) {
    operator = APPROXIMATE[dify];
    context.change(`"${dify}" became "${operator}"`);
  }
  if (!operator) throw new UnsupportedCondition(`the operator "${dify}" has no equivalent`);
  if (Array.isArray(condition.value))
    throw new UnsupportedCondition(`a list of values for "${dify}" has no equivalent`);
  let right: string | number | boolean | undefined;
  if (condition.value_type === "value_selector" && condition.value_selector) {
    right = templateOf(context.selector(condition.value_selector));
  } else if (condition.value !== null && condition.value !== undefined) {
    const raw = typeof condition.value === "string" ? context.template(condition.value) : condition.value;
    const numeric = Number(raw);
    right =
      ["=", "≠", ">", "<", "≥", "≤"].includes(operator) &&
      typeof raw === "string" &&
      raw.trim() !== "" &&
      Number.isFinite(numeric) &&
      !raw.includes("{{")
        ? numeric
        : raw;
  }
  return right === undefined ? { left, operator } : { left, operator, right };
}

/** if-else: cases with their logical operators; the `false` handle is `else`. */
export const ifElseMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(ifElseDataSchema, node, context);
    const difyCases =
      data.cases ??
      (data.conditions
        ? [{ case_id: "true", logical_operator: data.logical_operator ?? "and", conditions: data.conditions }]
        : []);
    try {
      const cases = difyCases.map((difyCase, index) => ({
        id: caseHandle(difyCase.case_id),
        label: index === 0 ? "If" : `Else if ${index}`,
        logic: difyCase.logical_operator,
        conditions: difyCase.conditions.map((condition) => mapCondition(condition, context)),
      }));
      return { nodes: [trellisNode(node, "condition", { cases })] };
    } catch (error) {
      if (error instanceof UnsupportedCondition)
        return { nodes: [], unsupported: `A condition cannot be mapped: ${error.message}` };
      throw error;
    }
  },
  sourceHandle: (handle, node) => ({ nodeId: node.id, handle: handle === "false" ? ELSE_PORT_ID : caseHandle(handle) }),
};
