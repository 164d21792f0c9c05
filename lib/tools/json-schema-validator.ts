import "server-only";
import crypto from "node:crypto";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import { canonicalJson } from "../workflow/canonical-json";
import { InvalidToolDefinitionError } from "./errors/invalid-tool-definition-error";

/** A JSON Schema object as plain data. */
export type JsonSchema = Record<string, unknown>;

/** Outcome of validating tool arguments. */
export type ArgumentValidation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

// One shared Ajv instance, behind a content-keyed cache (see createCompiledSchemaCache).
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

/** One Ajv error in words, at `place` (the value's name and path). */
function describeSchemaError(error: ErrorObject, place: string): string {
  if (error.keyword === "additionalProperties") {
    return `${place} has unknown property "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === "enum") return `${place} must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return `${place} ${error.message ?? "is invalid"}`;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "arguments are invalid";
  return errors.map((error) => describeSchemaError(error, `arguments${error.instancePath}`)).join("; ");
}

/** Most distinct schemas a {@link CompiledSchemaCache} keeps; the least recently used one is dropped beyond this. */
export const MAX_COMPILED_SCHEMAS = 500;

/** The minimal part of an Ajv instance the cache needs (any draft, any options). */
export interface SchemaCompiler {
  compile(schema: JsonSchema): ValidateFunction;
  removeSchema(schema: JsonSchema): unknown;
}

/** Validators compiled once per distinct schema content, bounded. */
export interface CompiledSchemaCache {
  /** The validator of `schema`, compiled on first sight of its content. @throws what Ajv throws for a bad schema. */
  compile(schema: JsonSchema): ValidateFunction;
  /** Distinct schemas compiled now (at most {@link MAX_COMPILED_SCHEMAS}). */
  readonly size: number;
}

/**
 * A content-keyed cache in front of an Ajv instance. Tool definitions are rebuilt per run (the
 * built-ins, a workspace's OpenAPI and MCP tools), always as new objects, and Ajv's own cache is
 * keyed by object identity and never shrinks: without this every run compiled every schema again
 * (milliseconds each) and the process kept every compiled function. Keys are the sha256 of the
 * schema's canonical JSON; beyond `maxEntries` the least recently used schema is also removed
 * from Ajv, so a long-lived process holds a bounded number of compiled validators.
 */
export function createCompiledSchemaCache(
  compiler: SchemaCompiler,
  maxEntries = MAX_COMPILED_SCHEMAS,
): CompiledSchemaCache {
  // Least recently used first (Map insertion order; a hit moves to the end).
  const entries = new Map<string, { schema: JsonSchema; validate: ValidateFunction }>();
  return {
    compile(schema) {
      const key = crypto.createHash("sha256").update(canonicalJson(schema)).digest("hex");
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit.validate;
      }
      // Ajv holds on to the object it compiled: a private copy keeps later edits by the caller out.
      const own = structuredClone(schema);
      const validate = compiler.compile(own);
      entries.set(key, { schema: own, validate });
      for (const [oldestKey, oldest] of entries) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldestKey);
        compiler.removeSchema(oldest.schema);
      }
      return validate;
    },
    get size() {
      return entries.size;
    },
  };
}

/** The tool validators' cache (exported for tests: it is shared across runs and bounded). */
export const toolSchemaCache = createCompiledSchemaCache(ajv);

/**
 * Compiles a tool's parameter schema (once per distinct content, see {@link createCompiledSchemaCache})
 * and returns a validator for argument objects. Defaults from the schema are applied to a copy;
 * the caller's object is never mutated.
 * @throws InvalidToolDefinitionError when the schema itself does not compile.
 */
export function compileArgumentValidator(toolName: string, schema: JsonSchema): (args: unknown) => ArgumentValidation {
  let validate: ValidateFunction;
  try {
    validate = toolSchemaCache.compile(withoutMetaSchema(schema));
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

// Values are checked as they are (no defaults filled in, no coercion), with every error reported.
const valueAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const valueSchemaCache = createCompiledSchemaCache(valueAjv);

/** A JSON Schema compiled for checking values: the checker, or why the schema itself is broken. */
export type ValueSchemaCheck = { ok: true; check: (value: unknown) => string[] } | { ok: false; invalidSchema: string };

/**
 * Compiles a JSON Schema (draft 2020-12; a `$schema` naming another draft is ignored, see
 * {@link withoutMetaSchema}) once per distinct content, for checking values as they are. The
 * checker answers the places a value breaks it (none when it conforms), each named from `root`:
 * `json.items[0].price must be number`.
 */
export function compileValueCheck(schema: JsonSchema, root: string): ValueSchemaCheck {
  let validate: ValidateFunction;
  try {
    validate = valueSchemaCache.compile(withoutMetaSchema(schema));
  } catch (error) {
    return { ok: false, invalidSchema: error instanceof Error ? error.message : String(error) };
  }
  return {
    ok: true,
    check: (value) =>
      validate(value)
        ? []
        : (validate.errors ?? []).map((error) =>
            describeSchemaError(
              error,
              // `/stops/0/km` reads as `stops[0].km`.
              root +
                error.instancePath.replace(/\/([^/]*)/g, (_match, part: string) =>
                  /^\d+$/.test(part) ? `[${part}]` : `.${part.replaceAll("~1", "/").replaceAll("~0", "~")}`,
                ),
            ),
          ),
  };
}
