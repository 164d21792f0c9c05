import "server-only";
import type { JsonSchema } from "../json-schema-validator";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "./load-document";
import { OpenApiSpecError } from "./openapi-spec-error";
import { resolveObject, toJsonSchema } from "./resolve-refs";

/** Where a tool argument goes in the HTTP request. */
export interface ParameterBinding {
  /** Property name in the tool's arguments. */
  property: string;
  /** Parameter name in the request. */
  name: string;
  /** Location in the request. */
  in: "path" | "query" | "header";
}

/** One operation, ready to become a tool. */
export interface OperationPlan {
  /** Sanitized tool name (before any prefix). */
  toolName: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template, e.g. `/pets/{petId}`. */
  path: string;
  /** Description for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  parameters: JsonSchema;
  /** How arguments map onto the request. */
  bindings: ParameterBinding[];
  /** True when the operation takes a JSON body (argument `body`). */
  hasBody: boolean;
  /** Location in the document, for errors. */
  location: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const PARAMETER_LOCATIONS = new Set(["path", "query", "header", "cookie"]);

/** Makes a string a valid tool name: `[a-zA-Z0-9_-]`, at most 64 characters. */
export function sanitizeToolName(raw: string): string {
  const cleaned = raw
    .replace(/[{}]/g, "")
    .replace(/[^a-zA-Z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
  return (cleaned || "operation").slice(0, 64);
}

function jsonMediaSchema(content: unknown): unknown {
  if (!isJsonObject(content)) return undefined;
  const mediaType = Object.keys(content).find(
    (type) => type === "application/json" || /^application\/[\w.-]+\+json/.test(type),
  );
  if (!mediaType) return undefined;
  const media = content[mediaType];
  return isJsonObject(media) ? (media.schema ?? {}) : {};
}

function collectParameters(
  document: OpenApiDocument,
  pathItem: JsonObject,
  operation: JsonObject,
  location: string,
): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  const add = (list: unknown, listLocation: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) throw new OpenApiSpecError(listLocation, "must be an array");
    list.forEach((entry, index) => {
      const entryLocation = `${listLocation}[${index}]`;
      const parameter = resolveObject(document, entry, entryLocation);
      if (typeof parameter.name !== "string" || parameter.name === "")
        throw new OpenApiSpecError(entryLocation, "missing name");
      if (typeof parameter.in !== "string" || !PARAMETER_LOCATIONS.has(parameter.in)) {
        throw new OpenApiSpecError(entryLocation, `"in" must be one of path, query, header, cookie`);
      }
      // Operation-level parameters override path-level ones with the same name and location.
      merged.set(`${parameter.in}:${parameter.name}`, { ...parameter, __location: entryLocation });
    });
  };
  add(pathItem.parameters, `${location.slice(0, location.lastIndexOf("."))}.parameters`);
  add(operation.parameters, `${location}.parameters`);
  return [...merged.values()];
}

function buildOperation(
  document: OpenApiDocument,
  path: string,
  method: string,
  pathItem: JsonObject,
  operation: JsonObject,
): OperationPlan {
  const location = `paths.${path}.${method}`;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const bindings: ParameterBinding[] = [];
  for (const parameter of collectParameters(document, pathItem, operation, location)) {
    const parameterLocation = String(parameter.__location);
    if (parameter.in === "cookie") continue; // Not sent: cookies are not a tool-call concept.
    const where = parameter.in as ParameterBinding["in"];
    const name = parameter.name as string;
    const property = properties[name] === undefined ? name : `${where}_${name}`;
    const rawSchema = parameter.schema ?? jsonMediaSchema(parameter.content) ?? { type: "string" };
    const schema = toJsonSchema(document, rawSchema, `${parameterLocation}.schema`);
    const described =
      isJsonObject(schema) && typeof parameter.description === "string"
        ? { ...schema, description: parameter.description }
        : schema;
    properties[property] = described;
    if (parameter.required === true || where === "path") required.push(property);
    bindings.push({ property, name, in: where });
  }
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    if (!bindings.some((binding) => binding.in === "path" && binding.name === match[1])) {
      throw new OpenApiSpecError(location, `path parameter "${match[1]}" is not declared`);
    }
  }
  let hasBody = false;
  if (operation.requestBody !== undefined) {
    const body = resolveObject(document, operation.requestBody, `${location}.requestBody`);
    const schema = jsonMediaSchema(body.content);
    if (schema !== undefined) {
      hasBody = true;
      const converted = toJsonSchema(document, schema, `${location}.requestBody.content.schema`);
      properties.body =
        isJsonObject(converted) && typeof body.description === "string"
          ? { ...converted, description: body.description }
          : converted;
      if (body.required === true) required.push("body");
    }
  }
  const summary = [operation.summary, operation.description]
    .filter((text) => typeof text === "string" && text.trim() !== "")
    .join("\n\n");
  const rawName =
    typeof operation.operationId === "string" && operation.operationId !== ""
      ? operation.operationId
      : `${method}_${path}`;
  return {
    toolName: sanitizeToolName(rawName),
    method: method.toUpperCase(),
    path,
    description: (summary || `${method.toUpperCase()} ${path}`).slice(0, 1024),
    parameters: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    bindings,
    hasBody,
    location,
  };
}

/**
 * One plan per operation in document order.
 * @throws OpenApiSpecError for malformed parameters, undeclared path parameters, bad `$ref`s and
 * duplicate tool names.
 */
export function buildOperations(document: OpenApiDocument): OperationPlan[] {
  const plans: OperationPlan[] = [];
  const seen = new Map<string, string>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      if (!isJsonObject(operation))
        throw new OpenApiSpecError(`paths.${path}.${method}`, "operation must be an object");
      const plan = buildOperation(document, path, method, pathItem, operation);
      const previous = seen.get(plan.toolName);
      if (previous)
        throw new OpenApiSpecError(
          `${plan.location}.operationId`,
          `duplicate tool name "${plan.toolName}" (also ${previous})`,
        );
      seen.set(plan.toolName, plan.location);
      plans.push(plan);
    }
  }
  return plans;
}
