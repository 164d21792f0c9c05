import "server-only";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ToolDefinition } from "../../tools/define-tool";
import { createCompiledSchemaCache } from "../../tools/json-schema-validator";

/** Outcome of parsing and validating the arguments of one call. */
export type ArgumentCheck =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; args: unknown; message: string; hint: string };

// One Ajv instance for the process: compiling is the expensive part. Tool definitions are rebuilt
// per run, so validators are cached by schema content (shared across runs, bounded), and per
// definition object for the calls of one run.
const schemas = createCompiledSchemaCache(new Ajv({ allErrors: true, strict: false, coerceTypes: false }));
const validators = new WeakMap<ToolDefinition, ValidateFunction | null>();

function validatorFor(tool: ToolDefinition): ValidateFunction | null {
  if (validators.has(tool)) return validators.get(tool)!;
  let validate: ValidateFunction | null = null;
  try {
    validate = schemas.compile(tool.parameters as Record<string, unknown>);
  } catch {
    // A tool with a schema Ajv cannot compile is still callable; the tool validates on its own.
    validate = null;
  }
  validators.set(tool, validate);
  return validate;
}

/** Parses raw model arguments: JSON text, an object, or empty (treated as `{}`). */
export function parseRawArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw !== "string") return { ok: true, value: raw };
  const text = raw.trim();
  if (text === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `The arguments are not valid JSON (${(error as Error).message}).` };
  }
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || "(root)";
  if (error.keyword === "additionalProperties") {
    return `${where}: unknown property "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === "enum") {
    return `${where}: must be one of ${JSON.stringify(error.params.allowedValues)}`;
  }
  return `${where}: ${error.message ?? error.keyword}`;
}

function schemaHint(tool: ToolDefinition): string {
  const schema = tool.parameters as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const properties = Object.entries(schema.properties ?? {})
    .map(([name, property]) => `${name}${property.type ? `: ${JSON.stringify(property.type)}` : ""}`)
    .join(", ");
  const required = schema.required?.length ? ` Required: ${schema.required.join(", ")}.` : "";
  return `Fix the arguments and call "${tool.name}" again with a JSON object matching its schema (${properties || "no properties"}).${required}`;
}

/**
 * Checks a call's arguments against the tool's JSON Schema before anything runs. On failure the
 * model gets the validation error and a hint naming the expected fields, so it can self-correct.
 */
export function checkArguments(tool: ToolDefinition, raw: unknown): ArgumentCheck {
  const parsed = parseRawArguments(raw);
  if (!parsed.ok) return { ok: false, args: raw, message: parsed.message, hint: schemaHint(tool) };
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, args: value, message: "The arguments must be a JSON object.", hint: schemaHint(tool) };
  }
  const validate = validatorFor(tool);
  if (validate && !validate(value)) {
    const problems = (validate.errors ?? []).map(describeError).join("; ");
    return { ok: false, args: value, message: `Invalid arguments: ${problems}.`, hint: schemaHint(tool) };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
