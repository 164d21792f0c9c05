import "server-only";
import { resolveLocalRef } from "../../workflow/json-schema-shape";
import { DEMO_LABEL } from "./demo-brain";

type Schema = Record<string, unknown>;

/** Deepest nesting sampled: a recursive schema ends in `null` there rather than looping. */
const MAX_DEPTH = 8;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A local `$ref` (`#/$defs/Item`, `#/definitions/Item`) resolved in the root schema, or undefined. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  const node = resolveLocalRef(root, ref);
  return isSchema(node) ? node : undefined;
}

function numberSample(schema: Schema, integer: boolean): number {
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  let value = minimum ?? (exclusive === undefined ? 0 : exclusive + (integer ? 1 : 0.5));
  if (maximum !== undefined && value > maximum) value = maximum;
  return integer ? Math.ceil(value) : value;
}

function stringSample(schema: Schema, name: string): string {
  const text = `${DEMO_LABEL} ${name}`;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const cut = max === undefined ? text : text.slice(0, max);
  return cut.padEnd(min, ".");
}

function sample(root: Schema, schema: Schema, name: string, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target ? sample(root, target, name, depth + 1) : null;
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants)) {
    const chosen = variants.find((variant) => isSchema(variant) && variant.type !== "null") ?? variants[0];
    if (isSchema(chosen))
      return sample(root, { ...schema, anyOf: undefined, oneOf: undefined, ...chosen }, name, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = Object.assign({}, ...schema.allOf.filter(isSchema));
    return sample(root, { ...schema, allOf: undefined, ...merged }, name, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== "null") ?? types[0];
  switch (type) {
    case "string":
      return stringSample(schema, name);
    case "integer":
    case "number":
      return numberSample(schema, type === "integer");
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
      const items = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: Math.min(Math.max(min, 1), max) }, () => sample(root, items, name, depth + 1));
    }
    default: {
      if (type !== "object" && !isSchema(schema.properties)) return `${DEMO_LABEL} ${name}`;
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([, property]) => isSchema(property))
          .map(([key, property]) => [key, sample(root, property as Schema, key, depth + 1)]),
      );
    }
  }
}

/**
 * A value that fits a JSON Schema, for the demo model's Structured Outputs: every property, the
 * first of an `enum`, the smallest number allowed, one item per array (or `minItems`), strings
 * that say they come from the demo model. So a flow with a structured LLM node runs end to end
 * without an API key. Constraints it cannot meet (a `pattern`, a `format`) may leave the value
 * outside the schema: the LLM node's schema check then says so.
 */
export function sampleForSchema(schema: Schema): unknown {
  return sample(schema, schema, "value", 0);
}
