/**
 * The shape of a JSON Schema written into a node (an LLM node's structured output), checked where
 * the editor and the compiler can: a misspelt type, `required` as a string, a reference to nothing.
 * Isomorphic and small on purpose: the server compiles the schema with Ajv when the node runs
 * (`json_schema_invalid`); this puts the usual mistakes on the field before a run.
 */

/** One problem with a schema, at its path inside the schema. */
export interface JsonSchemaIssue {
  /** Where, inside the schema: `["properties", "city", "type"]`. */
  path: (string | number)[];
  /** What is wrong, for people. */
  message: string;
}

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords whose value is one schema. */
const SUBSCHEMAS = [
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "additionalItems",
  "unevaluatedItems",
];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const NUMBERS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
];
/** Nesting beyond which a schema is not looked into (it is checked again when it runs). */
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a local reference (`#`, `#/$defs/Item`) names a part of the root schema. */
/** Where nothing is, for `resolveLocalRef` (`undefined` could be a value found). */
const NOWHERE: unique symbol = Symbol("nowhere");

/**
 * What a local `$ref` (`#`, `#/$defs/city`, JSON Pointer escapes and %-escapes decoded) points
 * at in `root`, or undefined when it is not local or names nothing.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  const found = follow(root, ref);
  return found === NOWHERE ? undefined : found;
}

function follow(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return NOWHERE;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return NOWHERE; // a malformed %-escape names nothing
    }
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return NOWHERE;
  }
  return node;
}

function resolves(root: unknown, ref: string): boolean {
  return follow(root, ref) !== NOWHERE;
}

/** The problems of a JSON Schema's shape (none for a sound one). */
export function jsonSchemaShapeIssues(schema: unknown): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  const visit = (node: unknown, path: (string | number)[], depth: number): void => {
    if (depth > MAX_DEPTH || typeof node === "boolean") return;
    if (!isObject(node)) {
      issues.push({ path, message: "must be a schema (an object)" });
      return;
    }
    if ("type" in node) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (types.length === 0 || types.some((type) => typeof type !== "string" || !TYPES.includes(type)))
        issues.push({ path: [...path, "type"], message: `must be one of ${TYPES.join(", ")}, or a list of them` });
    }
    if (
      "required" in node &&
      !(Array.isArray(node.required) && node.required.every((name) => typeof name === "string"))
    )
      issues.push({ path: [...path, "required"], message: "must be a list of property names" });
    if ("enum" in node && !Array.isArray(node.enum))
      issues.push({ path: [...path, "enum"], message: "must be a list of the allowed values" });
    for (const keyword of NUMBERS) {
      if (keyword in node && typeof node[keyword] !== "number")
        issues.push({ path: [...path, keyword], message: "must be a number" });
    }
    if ("$ref" in node) {
      const ref = node.$ref;
      if (typeof ref !== "string" || !resolves(schema, ref))
        issues.push({
          path: [...path, "$ref"],
          message: "must name a part of this schema (#/$defs/…): other references cannot be followed",
        });
    }
    for (const keyword of SCHEMA_MAPS) {
      if (!(keyword in node)) continue;
      const map = node[keyword];
      if (!isObject(map)) issues.push({ path: [...path, keyword], message: "must be an object of schemas" });
      else for (const [name, child] of Object.entries(map)) visit(child, [...path, keyword, name], depth + 1);
    }
    for (const keyword of SUBSCHEMAS) if (keyword in node) visit(node[keyword], [...path, keyword], depth + 1);
    if ("items" in node) {
      // A list is draft-07's tuple form, which Ajv still reads.
      if (Array.isArray(node.items)) {
        for (const [index, child] of node.items.entries()) visit(child, [...path, "items", index], depth + 1);
      } else visit(node.items, [...path, "items"], depth + 1);
    }
    for (const keyword of SCHEMA_LISTS) {
      if (!(keyword in node)) continue;
      const list = node[keyword];
      if (!Array.isArray(list) || list.length === 0)
        issues.push({ path: [...path, keyword], message: "must be a non-empty list of schemas" });
      else for (const [index, child] of list.entries()) visit(child, [...path, keyword, index], depth + 1);
    }
  };
  visit(schema, [], 0);
  return issues;
}
