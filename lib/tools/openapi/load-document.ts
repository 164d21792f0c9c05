import "server-only";
import { parse as parseYaml } from "yaml";
import { OpenApiSpecError } from "./openapi-spec-error";

/** A JSON object as read from the document. */
export type JsonObject = Record<string, unknown>;

/** A parsed OpenAPI 3.0/3.1 document with the fields we rely on checked. */
export interface OpenApiDocument extends JsonObject {
  openapi: string;
  paths: Record<string, JsonObject>;
  /** "3.0" or "3.1": decides how schemas are converted. */
  majorMinor: "3.0" | "3.1";
}

/** True for plain objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses an OpenAPI document from JSON or YAML text (or an already parsed object) and checks
 * the top level. Deeper problems are reported while building the operations.
 * @throws OpenApiSpecError naming the location.
 */
export function loadOpenApiDocument(input: string | JsonObject): OpenApiDocument {
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      // YAML 1.2 is a superset of JSON, so one parser covers both.
      data = parseYaml(input, { maxAliasCount: 100 });
    } catch (error) {
      throw new OpenApiSpecError(
        "(document)",
        `not valid JSON or YAML: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (!isJsonObject(data)) throw new OpenApiSpecError("(document)", "must be an object");
  if (typeof data.swagger === "string") {
    throw new OpenApiSpecError(
      "swagger",
      `Swagger ${data.swagger} is not supported; convert the document to OpenAPI 3`,
    );
  }
  if (typeof data.openapi !== "string")
    throw new OpenApiSpecError("openapi", "missing version field (OpenAPI 3.0 or 3.1 expected)");
  const version = /^3\.(0|1)(\.\d+)?/.exec(data.openapi);
  if (!version)
    throw new OpenApiSpecError("openapi", `version "${data.openapi}" is not supported (3.0 or 3.1 expected)`);
  if (!isJsonObject(data.paths)) throw new OpenApiSpecError("paths", "missing or not an object");
  for (const [path, item] of Object.entries(data.paths)) {
    if (!path.startsWith("/")) throw new OpenApiSpecError(`paths.${path}`, 'path must start with "/"');
    if (!isJsonObject(item)) throw new OpenApiSpecError(`paths.${path}`, "path item must be an object");
  }
  return {
    ...data,
    openapi: data.openapi,
    paths: data.paths as Record<string, JsonObject>,
    majorMinor: version[1] === "0" ? "3.0" : "3.1",
  };
}
