import "server-only";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "./load-document";
import { OpenApiSpecError } from "./openapi-spec-error";

/** Follows a local `$ref` (`#/components/...`) to its target. */
export function resolvePointer(document: JsonObject, reference: string, location: string): unknown {
  if (!reference.startsWith("#")) {
    throw new OpenApiSpecError(location, `external $ref "${reference}" is not supported; bundle the document first`);
  }
  const segments = reference
    .slice(1)
    .split("/")
    .filter((segment, index) => index > 0 || segment !== "")
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
  let current: unknown = document;
  for (const segment of segments) {
    if (!isJsonObject(current) && !Array.isArray(current)) {
      throw new OpenApiSpecError(location, `cannot resolve $ref "${reference}"`);
    }
    current = (current as Record<string, unknown>)[segment];
    if (current === undefined) throw new OpenApiSpecError(location, `cannot resolve $ref "${reference}"`);
  }
  return current;
}

/** Resolves an object that may itself be a `$ref` (parameters, request bodies), following chains. */
export function resolveObject(document: JsonObject, value: unknown, location: string): JsonObject {
  let current = value;
  const seen = new Set<string>();
  while (isJsonObject(current) && typeof current.$ref === "string") {
    if (seen.has(current.$ref)) throw new OpenApiSpecError(location, `circular $ref "${current.$ref}"`);
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref, location);
  }
  if (!isJsonObject(current)) throw new OpenApiSpecError(location, "must be an object");
  return current;
}

/** Keywords that are OpenAPI annotations, not validation, and would only confuse Ajv or the model. */
const DROPPED_KEYWORDS = new Set(["xml", "externalDocs", "example", "discriminator", "$schema", "$id"]);

/**
 * Converts an OpenAPI schema into a self-contained JSON Schema: every local `$ref` is inlined
 * (tool schemas go to models that cannot follow references), a recursive reference becomes an
 * open object, and OpenAPI 3.0 dialect (`nullable`, boolean `exclusiveMinimum`) is translated.
 */
export function toJsonSchema(
  document: OpenApiDocument,
  schema: unknown,
  location: string,
  stack: string[] = [],
): unknown {
  if (Array.isArray(schema))
    return schema.map((entry, index) => toJsonSchema(document, entry, `${location}[${index}]`, stack));
  if (!isJsonObject(schema)) return schema;
  if (typeof schema.$ref === "string") {
    const reference = schema.$ref;
    if (stack.includes(reference)) {
      return { type: "object", description: `Recursive structure (${reference.split("/").pop()})` };
    }
    const target = resolvePointer(document, reference, location);
    return toJsonSchema(document, target, location, [...stack, reference]);
  }
  const converted: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key) || key.startsWith("x-")) continue;
    if (key === "properties" && isJsonObject(value)) {
      converted.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          toJsonSchema(document, property, `${location}.properties.${name}`, stack),
        ]),
      );
      continue;
    }
    converted[key] = toJsonSchema(document, value, `${location}.${key}`, stack);
  }
  if (document.majorMinor === "3.0") {
    if (converted.nullable === true) {
      if (typeof converted.type === "string") converted.type = [converted.type, "null"];
      else if (Array.isArray(converted.enum)) converted.enum = [...converted.enum, null];
    }
    delete converted.nullable;
    for (const [exclusive, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (converted[exclusive] === true && typeof converted[bound] === "number") {
        converted[exclusive] = converted[bound];
        delete converted[bound];
      } else if (typeof converted[exclusive] === "boolean") {
        delete converted[exclusive];
      }
    }
  }
  return converted;
}
