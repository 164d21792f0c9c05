import "server-only";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import { InvalidToolDefinitionError } from "./errors/invalid-tool-definition-error";

/** A JSON Schema object as plain data. */
export type JsonSchema = Record<string, unknown>;

/** Outcome of validating tool arguments. */
export type ArgumentValidation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

// One shared Ajv instance: compiling is the expensive part and schemas are cached by identity.
// strict:false because tool schemas come from zod, OpenAPI (`nullable`, `example`) and MCP servers
// that use keywords Ajv does not know; validateFormats:false because ajv-formats is not installed
// and an unknown format must not reject a call.
const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: true, validateFormats: false });

/**
 * Returns the schema without `$schema`. zod emits draft 2020-12 and MCP servers often draft-07;
 * Ajv2020 would refuse the draft-07 meta-schema, and models need neither. Draft-07 keywords
 * mostly validate the same way under the 2020-12 engine (tuple `items` arrays do not).
 */
export function withoutMetaSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "arguments are invalid";
  return errors
    .map((error) => {
      const path = error.instancePath === "" ? "arguments" : `arguments${error.instancePath}`;
      if (error.keyword === "additionalProperties") {
        return `${path} has unknown property "${String(error.params.additionalProperty)}"`;
      }
      if (error.keyword === "enum") {
        return `${path} must be one of ${JSON.stringify(error.params.allowedValues)}`;
      }
      return `${path} ${error.message ?? "is invalid"}`;
    })
    .join("; ");
}

/**
 * Compiles a tool's parameter schema once and returns a validator for argument objects.
 * Defaults from the schema are applied to a copy; the caller's object is never mutated.
 * @throws InvalidToolDefinitionError when the schema itself does not compile.
 */
export function compileArgumentValidator(toolName: string, schema: JsonSchema): (args: unknown) => ArgumentValidation {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(withoutMetaSchema(schema));
  } catch (error) {
    throw new InvalidToolDefinitionError(
      `Tool "${toolName}" has an invalid parameter schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (args: unknown) => {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return { ok: false, message: "arguments must be a JSON object" };
    }
    const copy = structuredClone(args) as Record<string, unknown>;
    if (validate(copy)) return { ok: true, value: copy };
    return { ok: false, message: formatErrors(validate.errors) };
  };
}
