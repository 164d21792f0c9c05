import { z } from "zod";
import { apiScopesAllowing } from "@/lib/services/access/policy";
import { CODE_NOTES, commonErrors, statusOfCode } from "./openapi-error-codes";
import { API_OPERATIONS, type ApiOperation } from "./openapi-operations";
import { errorBodySchema, openAiErrorBodySchema } from "./schemas";

/** JSON Schema object as it appears in the document. */
type JsonSchema = Record<string, unknown>;

/** Collects `$defs` into components and points `$ref`s there. */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const { $schema: _schema, $defs, ...rest } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, definition] of Object.entries($defs ?? {})) {
      this.components[name] ??= this.relink(definition) as JsonSchema;
    }
    return this.relink(rest) as JsonSchema;
  }

  private relink(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.relink(item));
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        key === "$ref" && typeof entry === "string"
          ? entry.replace("#/$defs/", "#/components/schemas/")
          : this.relink(entry),
      ]),
    );
  }
}

function parametersOf(operation: ApiOperation, schemas: SchemaCollector): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [location, object] of [
    ["path", operation.params],
    ["query", operation.query],
  ] as const) {
    if (!object) continue;
    const converted = schemas.convert(object, "input") as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(converted.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: location,
        required: location === "path" || (converted.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const header of operation.headers ?? []) {
    const { description: _description, ...schema } = schemas.convert(header.schema, "input");
    parameters.push({ name: header.name, in: "header", required: false, description: header.description, schema });
  }
  return parameters;
}

function responsesOf(operation: ApiOperation, schemas: SchemaCollector): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const answer of operation.success) {
    responses[String(answer.status)] = {
      description: answer.description,
      ...(answer.headers
        ? { headers: mapValues(answer.headers, (header) => ({ ...header, schema: { type: "string" } })) }
        : {}),
      ...(Object.keys(answer.content).length
        ? {
            content: mapValues(answer.content, (schema) =>
              schema ? { schema: schemas.convert(schema, "output") } : {},
            ),
          }
        : {}),
    };
  }
  const byStatus = new Map<number, string[]>();
  for (const code of [...commonErrors(operation), ...operation.errors]) {
    const status = statusOfCode(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const errorRef = { $ref: `#/components/schemas/${operation.errorShape === "openai" ? "OpenAiError" : "Error"}` };
  for (const [status, codes] of [...byStatus].sort(([left], [right]) => left - right)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${CODE_NOTES[code] ?? ""}`.trim()).join("\n"),
      "x-error-codes": codes,
      content: { "application/json": { schema: errorRef } },
      ...(codes.includes("rate_limited")
        ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } }
        : {}),
    };
  }
  return responses;
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/** The OpenAPI 3.1 document of /api/v1, generated from the routes' zod schemas. */
export function buildOpenApiDocument(): JsonSchema {
  const schemas = new SchemaCollector();
  schemas.convert(errorBodySchema, "output");
  schemas.convert(openAiErrorBodySchema, "output");
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of API_OPERATIONS) {
    const parameters = parametersOf(operation, schemas);
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description: operation.description,
      // OpenAPI 3.1 lets a non-OAuth requirement name roles: here the key scopes any one of which allows it.
      security:
        operation.auth === "api-key" ? [{ apiKey: operation.action ? apiScopesAllowing(operation.action) : [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: schemas.convert(operation.body, "input") } },
            },
          }
        : {}),
      responses: responsesOf(operation, schemas),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Trellis published API",
      version: "1",
      description:
        "Published workflows as APIs: run them (blocking or streaming), follow and answer their runs, call them as OpenAI chat models or as MCP tools. Authenticate with an API key from Settings → API keys.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: [
      {
        name: "Workflows",
        description:
          "The published workflows a key may call: their inputs and outputs, versions, the version served, and runs.",
      },
      { name: "Runs", description: "A run's result, its events (re-attach with `Last-Event-ID`), cancel and resume." },
      { name: "Evaluations", description: "Evaluation runs of a workflow against a dataset, for CI gates." },
      {
        name: "OpenAI-compatible",
        description: "Chat Completions and Models as OpenAI defines them: the model is a workflow's slug.",
      },
      { name: "MCP", description: "Streamable HTTP MCP server: each workflow the key may call is a tool." },
      { name: "Meta", description: "This document." },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer trl_…`: an API key. Each operation's security requirement lists the scopes that allow it (any one of them); a key without one is refused with 403 `api_key_scope_missing`.",
        },
      },
      schemas: schemas.components,
    },
  };
}
