import type { CanvasIssue } from "../store/types";

/** The subset of JSON Schema that `z.toJSONSchema` emits for node configs. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
}

/** The schema's type, ignoring `null` in a nullable union. */
export function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
}

/** True for an array of strings (a selector, a list of names). */
export function isStringArray(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && typeOf(schema) === "array" && typeOf(schema.items ?? {}) === "string";
}

/** Picks the interesting branch of a nullable union. */
export function unwrap(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!variants) return schema;
  const concrete = variants.filter((variant) => typeOf(variant) !== "null");
  return concrete.length === 1
    ? { ...concrete[0], description: schema.description ?? concrete[0].description }
    : schema;
}

/** A fresh value for a schema (used by "add item" and "enable" toggles). */
export function defaultFor(schema: JsonSchema): unknown {
  const resolved = unwrap(schema);
  if (resolved.default !== undefined) return structuredClone(resolved.default);
  if (resolved.enum && resolved.enum.length > 0) return resolved.enum[0];
  if (resolved.const !== undefined) return resolved.const;
  switch (typeOf(resolved)) {
    case "string":
      return "";
    case "number":
    case "integer":
      return resolved.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(resolved.properties ?? {})) {
        if (resolved.required?.includes(key) || property.default !== undefined) result[key] = defaultFor(property);
      }
      return result;
    }
    default:
      return resolved.anyOf ? defaultFor(resolved.anyOf[0]) : "";
  }
}

/** A DOM id for a field path, used by "click a problem → focus the field". */
export function fieldDomId(nodeId: string, path: (string | number)[]): string {
  return `field-${nodeId}-${path.join("-")}`.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** An issue's path in the node's config (the document path, `data.` dropped). */
function configPathOf(issue: CanvasIssue): (string | number)[] {
  return issue.path[0] === "data" ? issue.path.slice(1) : issue.path;
}

/**
 * The issues reported at this field path; with `nested`, also those inside it (a free-form JSON
 * field such as an LLM node's JSON schema has no fields of its own to show them at).
 */
export function issuesAt(issues: CanvasIssue[], path: (string | number)[], nested = false): CanvasIssue[] {
  const joined = path.join(".");
  return issues.filter((issue) => {
    const issuePath = configPathOf(issue).join(".");
    return issuePath === joined || (nested && issuePath.startsWith(`${joined}.`));
  });
}

/** Whether a field is a record of strings (headers, env), edited as key/value pairs. */
export function isStringRecord(schema: JsonSchema): boolean {
  const additional = schema.additionalProperties;
  return (
    typeOf(schema) === "object" &&
    typeof additional === "object" &&
    additional !== null &&
    typeOf(additional) === "string"
  );
}

/** Whether a field is edited as free-form JSON: an object with neither declared properties nor string values. */
export function isFreeJson(schema: JsonSchema): boolean {
  return typeOf(schema) === "object" && !schema.properties && !isStringRecord(schema);
}
