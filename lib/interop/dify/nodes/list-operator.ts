import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, trellisNode } from "./shared";

const selectorSchema = z.array(z.union([z.string(), z.number()]).transform(String));

/** ListOperatorNodeData (nodes/list_operator/entities.py). */
const listOperatorDataSchema = z.looseObject({
  variable: selectorSchema.default([]),
  filter_by: z
    .looseObject({
      enabled: z.boolean().default(false),
      conditions: z
        .array(
          z.looseObject({
            key: z.string().nullish(),
            comparison_operator: z.string().default("contains"),
            value: z.union([z.string(), z.array(z.string()), z.boolean(), z.number()]).nullish(),
          }),
        )
        .default([]),
    })
    .nullish(),
  order_by: z
    .looseObject({
      enabled: z.boolean().default(false),
      key: z.string().nullish(),
      value: z.string().default("asc"),
    })
    .nullish(),
  limit: z.looseObject({ enabled: z.boolean().default(false), size: z.number().default(-1) }).nullish(),
  extract_by: z.looseObject({ enabled: z.boolean().default(false), serial: z.string().default("1") }).nullish(),
});

const OPERATORS = new Set([
  "contains",
  "start with",
  "end with",
  "is",
  "in",
  "empty",
  "not contains",
  "is not",
  "not in",
  "not empty",
  "=",
  "≠",
  "<",
  ">",
  "≥",
  "≤",
]);

/**
 * The list operator's steps as Dify runs them (filter, then extract, then order, then limit) over
 * `inputs.items`, with condition values and the serial read from inputs because they may be
 * templates. Outputs are Dify's: `result`, `first_record`, `last_record`.
 */
const RUNTIME = `function field(item, key) {
  return key && item !== null && typeof item === "object" ? item[key] : item;
}
function test(value, operator, expected) {
  const text = (x) => (x === null || x === undefined ? "" : String(x));
  switch (operator) {
    case "contains": return Array.isArray(value) ? value.includes(expected) : text(value).includes(text(expected));
    case "not contains": return !test(value, "contains", expected);
    case "start with": return text(value).startsWith(text(expected));
    case "end with": return text(value).endsWith(text(expected));
    case "is": return typeof value === "boolean" ? String(value) === text(expected) : value === expected || text(value) === text(expected);
    case "is not": return !test(value, "is", expected);
    case "in": return Array.isArray(expected) ? expected.map(text).includes(text(value)) : text(expected).includes(text(value));
    case "not in": return !test(value, "in", expected);
    case "empty": return value === null || value === undefined || value === "";
    case "not empty": return !test(value, "empty", expected);
    case "=": return Number(value) === Number(expected);
    case "≠": return Number(value) !== Number(expected);
    case "<": return Number(value) < Number(expected);
    case ">": return Number(value) > Number(expected);
    case "≥": return Number(value) >= Number(expected);
    case "≤": return Number(value) <= Number(expected);
    default: throw new Error("Unknown list filter operator: " + operator);
  }
}
function compare(a, b) {
  return typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
function main(inputs) {
  let list = inputs.items;
  if (list === null || list === undefined) list = [];
  if (!Array.isArray(list)) throw new Error("The list operator's input is not a list");
  for (const [index, condition] of STEPS.filter.entries()) {
    const expected = condition.constant !== undefined ? condition.constant : inputs["value" + index];
    list = list.filter((item) => test(field(item, condition.key), condition.operator, expected));
  }
  if (STEPS.extract) {
    const serial = Number(inputs.serial);
    if (!Number.isInteger(serial) || serial < 1) throw new Error("Serial must be a whole number from 1, not " + inputs.serial);
    if (serial > list.length) throw new Error("Serial " + serial + " is past the end of the list (" + list.length + " items)");
    list = [list[serial - 1]];
  }
  if (STEPS.order) {
    // Stable both ways, as Python's sorted(reverse=True): equal items keep their order.
    const sign = STEPS.order.descending ? -1 : 1;
    list = [...list].sort((a, b) => sign * compare(field(a, STEPS.order.key), field(b, STEPS.order.key)));
  }
  if (STEPS.limit !== null) list = list.slice(0, STEPS.limit);
  return { result: list, first_record: list.length > 0 ? list[0] : null, last_record: list.length > 0 ? list[list.length - 1] : null };
}
`;

const LIST_OPERATOR_OUTPUTS = new Set(["result", "first_record", "last_record"]);

/**
 * list-operator: there is no list node here, so it becomes a Code node running Dify's steps
 * (filter, extract, order, limit) on the list. Its outputs (`result`, `first_record`,
 * `last_record`) are fields of the returned object.
 */
export const listOperatorMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(listOperatorDataSchema, node, context);
    const inputs: { name: string; value: string | string[] }[] = [
      { name: "items", value: context.selector(data.variable) },
    ];
    const filter = data.filter_by?.enabled
      ? data.filter_by.conditions.map((condition, index) => {
          if (!OPERATORS.has(condition.comparison_operator)) {
            context.change(
              `Filter operator "${condition.comparison_operator}" is unknown; the node fails when it runs`,
            );
          }
          const step = { key: condition.key ?? "", operator: condition.comparison_operator };
          // Text may hold {{#node.var#}} references: it becomes an input, rendered at run time.
          if (typeof condition.value === "string") {
            inputs.push({ name: `value${index}`, value: context.template(condition.value) });
            return step;
          }
          return { ...step, constant: condition.value ?? "" };
        })
      : [];
    const extract = data.extract_by?.enabled ?? false;
    if (extract) inputs.push({ name: "serial", value: context.template(data.extract_by?.serial ?? "1") });
    const steps = {
      filter,
      extract,
      order: data.order_by?.enabled
        ? { key: data.order_by.key ?? "", descending: data.order_by.value === "desc" }
        : null,
      limit: data.limit?.enabled ? data.limit.size : null,
    };
    context.change("Became a Code node that runs the list operator's steps (filter, extract, order, limit)");
    const code = `const STEPS = ${JSON.stringify(steps)};\n${RUNTIME}`;
    return {
      nodes: [
        trellisNode(node, "code", {
          language: "javascript",
          code,
          inputs,
          outputs: [],
        }),
      ],
    };
  },
  // Dify's outputs are the returned object's fields, read through the code node's `result` (the
  // whole value). Not declared outputs: a record's type is the list's element type, which a
  // declared output (checked when the node runs) could not follow.
  outputPath: (path) => (LIST_OPERATOR_OUTPUTS.has(path[0] ?? "") ? ["result", ...path] : path),
};
