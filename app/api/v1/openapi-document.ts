import { z } from "zod";
import { servedVersionBodySchema } from "@/app/api/workflows/[id]/versions/schema";
import { statusForCode } from "@/lib/http/respond";
import { type Action, apiScopesAllowing } from "@/lib/services/access/policy";
import { v1EvaluationBodySchema, v1EvaluationPathSchema } from "./evaluations/schema";
import {
  cancelAnswerSchema,
  chatCompletionBodySchema,
  chatCompletionSchema,
  errorBodySchema,
  idempotencyKeyHeaderSchema,
  jsonRpcMessageSchema,
  modelListSchema,
  modelPathSchema,
  modelSchema,
  openAiErrorBodySchema,
  publishedRunBodySchema,
  resumeAcceptedSchema,
  resumeRunBodySchema,
  runAnswerSchema,
  runEventSchema,
  runPathSchema,
  workflowDescriptionSchema,
  workflowListSchema,
  workflowPathSchema,
} from "./schemas";

/** JSON Schema object as it appears in the document. */
type JsonSchema = Record<string, unknown>;

/** A successful answer of an operation. */
interface SuccessAnswer {
  status: number;
  description: string;
  /** Content type → schema of the body. */
  content: Record<string, z.ZodType | null>;
  headers?: Record<string, { description: string }>;
}

/** A header a request may send. */
interface RequestHeader {
  name: string;
  description: string;
  schema: z.ZodType;
}

/** One /api/v1 operation: what the route parses (the same zod schemas) and every answer it gives. */
export interface ApiOperation {
  method: "get" | "post" | "put";
  /** OpenAPI path (`{slug}`), served by the route file of the same folders (`[slug]`). */
  path: string;
  operationId: string;
  tag: "Workflows" | "Runs" | "Evaluations" | "OpenAI-compatible" | "MCP" | "Meta";
  summary: string;
  description: string;
  /** `api-key`: `Authorization: Bearer trl_…`, a key with a scope that allows `action`. */
  auth: "api-key" | "public";
  /** What the route authorizes (API-key operations): the scopes listed are those the policy grants it with. */
  action?: Action;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: RequestHeader[];
  body?: z.ZodType;
  success: SuccessAnswer[];
  /** Error codes this operation answers beyond the common ones of its kind. */
  errors: string[];
  /** `openai`: errors in OpenAI's shape (`error.type`, `error.param`). */
  errorShape?: "trellis" | "openai";
}

/** Statuses of codes that are not TrellisErrors mapped by `mapError`. */
const STATUS_OVERRIDES: Record<string, number> = {
  method_not_allowed: 405,
  internal_error: 500,
  run_cancelled: 409,
  run_waiting: 409,
  run_still_running: 409,
  "<run error code>": 422,
};

/** What each code means, for the error tables. */
const CODE_NOTES: Record<string, string> = {
  unauthorized: "No API key (no `Authorization: Bearer` header).",
  invalid_api_key: "An unknown or revoked key (one answer for both).",
  forbidden: "The key may not touch this resource.",
  api_key_scope_missing: "The key has none of the scopes the operation lists; `scope` names one that would allow it.",
  rate_limited: "Too many calls for this key; `Retry-After` says when to try again.",
  method_not_allowed: "Another method; `Allow` lists the right one.",
  internal_error: "A server fault (logged).",
  invalid_path: "A malformed path parameter.",
  invalid_query: "A malformed query parameter.",
  invalid_json: "The body is not JSON.",
  invalid_request: "The body does not match the schema; `field` names the first issue.",
  request_too_large: "The body is larger than 4 MB.",
  unsupported_media_type: "The body is not sent as application/json.",
  too_deep: "The body nests more than 256 levels.",
  workflow_not_found: "No such workflow, or not one this key may call.",
  workflow_not_published: "The workflow was never published.",
  workflow_version_not_found: "`slug@version` names a version that was never published.",
  workflow_invalid: "The published version does not compile any more.",
  invalid_input: "The inputs do not match the start node's declared inputs (`issues` name each).",
  idempotency_key_reused: "The Idempotency-Key was used with another body within 24 h.",
  idempotency_key_in_progress: "The first call with this Idempotency-Key is still starting its run.",
  invalid_idempotency_key: "An empty or over-long Idempotency-Key.",
  run_not_found: "No such run, or not one this key started.",
  run_not_active: "The run already ended.",
  invalid_answer: "The answer does not fit what the waiting node asks.",
  invalid_dataset: "The cases are not valid: `issues` lists each problem with its line and field.",
  evaluation_not_found: "No such evaluation, or not one of this key's workspace.",
  run_cancelled: "The run was cancelled.",
  run_waiting: "A human-input node waits; answer with /api/v1/runs/{runId}/resume.",
  run_still_running: "The run outlived the hold; follow it with /api/v1/runs/{runId}.",
  "<run error code>":
    "The run failed: the run's own code (model_rate_limited, deadline_exceeded, …), type workflow_error.",
};

/** The status an operation answers a code with. */
export function statusOfCode(code: string): number {
  return STATUS_OVERRIDES[code] ?? statusForCode(code);
}

const BODY_ERRORS = ["invalid_json", "invalid_request", "request_too_large", "unsupported_media_type", "too_deep"];
const IDEMPOTENCY_ERRORS = ["idempotency_key_reused", "idempotency_key_in_progress", "invalid_idempotency_key"];

/** Codes every operation of a kind can answer. */
function commonErrors(operation: ApiOperation): string[] {
  const codes = ["method_not_allowed", "internal_error"];
  if (operation.auth === "api-key")
    codes.unshift("unauthorized", "invalid_api_key", "forbidden", "api_key_scope_missing", "rate_limited");
  if (operation.params) codes.push("invalid_path");
  if (operation.query) codes.push("invalid_query");
  if (operation.body) codes.push(...BODY_ERRORS);
  return codes;
}

const idempotencyHeader: RequestHeader = {
  name: "Idempotency-Key",
  description: idempotencyKeyHeaderSchema.description ?? "",
  schema: idempotencyKeyHeaderSchema,
};
const replayedHeader = {
  "Idempotent-Replayed": { description: "`true` when this answers an earlier call with the same Idempotency-Key." },
};
const eventStream = "text/event-stream";

/** Every /api/v1 operation. A route file missing here fails `openapi-document.test.ts`. */
export const API_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/v1/evaluations",
    operationId: "runEvaluation",
    tag: "Evaluations",
    summary: "Evaluate a workflow on cases (CI)",
    description:
      "Runs k trials per case against a published version, `latest` or the draft (keys with `evaluate`): 200 with the summary (pass^k, pass@k, cost, latency), or 202 with `evaluationId` when it outlives `timeout_seconds`.",
    auth: "api-key",
    action: "evaluation.run",
    body: v1EvaluationBodySchema,
    success: [
      { status: 200, description: "The evaluation summary.", content: { "application/json": z.looseObject({}) } },
      { status: 202, description: "Still running: poll its id.", content: { "application/json": z.looseObject({}) } },
    ],
    errors: ["workflow_not_found", "workflow_not_published", "invalid_dataset"],
  },
  {
    method: "get",
    path: "/api/v1/evaluations/{id}",
    operationId: "getEvaluation",
    tag: "Evaluations",
    summary: "Read an evaluation's summary",
    description: "Its status, per-case results and totals (keys with `evaluate`).",
    auth: "api-key",
    action: "evaluation.read",
    params: v1EvaluationPathSchema,
    success: [
      { status: 200, description: "The evaluation summary.", content: { "application/json": z.looseObject({}) } },
    ],
    errors: ["evaluation_not_found"],
  },
  {
    method: "get",
    path: "/api/v1/workflows",
    operationId: "listWorkflows",
    tag: "Workflows",
    summary: "List the workflows this key may call",
    description: "Published workflows only, each with its inputs, outputs and the version calls are served by.",
    auth: "api-key",
    action: "workflow.run",
    success: [{ status: 200, description: "The workflows.", content: { "application/json": workflowListSchema } }],
    errors: [],
  },
  {
    method: "get",
    path: "/api/v1/workflows/{slug}",
    operationId: "getWorkflow",
    tag: "Workflows",
    summary: "Describe one workflow",
    description: "Its declared inputs with types, its outputs and the version served.",
    auth: "api-key",
    action: "workflow.run",
    params: workflowPathSchema,
    success: [
      { status: 200, description: "The workflow.", content: { "application/json": workflowDescriptionSchema } },
    ],
    errors: ["workflow_not_found", "workflow_not_published"],
  },
  {
    method: "get",
    path: "/api/v1/workflows/{slug}/versions",
    operationId: "listWorkflowVersions",
    tag: "Workflows",
    summary: "List a workflow's published versions",
    description:
      "Newest first, with notes and who published them, and the version the endpoint serves (keys with `manage`).",
    auth: "api-key",
    action: "workflow.read",
    params: workflowPathSchema,
    success: [{ status: 200, description: "The versions.", content: { "application/json": z.looseObject({}) } }],
    errors: ["workflow_not_found"],
  },
  {
    method: "put",
    path: "/api/v1/workflows/{slug}/served-version",
    operationId: "setServedVersion",
    tag: "Workflows",
    summary: "Pin the version the endpoint serves",
    description:
      "`{ version: n }` pins a published version; `{ version: null }` serves the latest again (keys with `manage`).",
    auth: "api-key",
    action: "workflow.publish",
    params: workflowPathSchema,
    body: servedVersionBodySchema,
    success: [
      {
        status: 200,
        description: "The workflow's versions after the change.",
        content: { "application/json": z.looseObject({}) },
      },
    ],
    errors: ["workflow_not_found", "workflow_version_not_found"],
  },
  {
    method: "post",
    path: "/api/v1/workflows/{slug}/run",
    operationId: "runWorkflow",
    tag: "Workflows",
    summary: "Run a published workflow",
    description:
      "`blocking` answers with the outputs when the run ends (202 when it outlives `timeout_seconds`); such a run records no text `node-delta` events (its text is in each `node-end`). `streaming` answers with the run's events as Server-Sent Events, text deltas included, ending with `run-end` (or `run-waiting`).",
    auth: "api-key",
    action: "workflow.run",
    params: workflowPathSchema,
    headers: [idempotencyHeader],
    body: publishedRunBodySchema,
    success: [
      {
        status: 200,
        description: "Blocking: the ended run. Streaming: its events (`id:` seq, `event:` type, `data:` the event).",
        content: { "application/json": runAnswerSchema, [eventStream]: runEventSchema },
        headers: replayedHeader,
      },
      {
        status: 202,
        description: "Blocking, still running after timeout_seconds: poll /api/v1/runs/{runId}.",
        content: { "application/json": runAnswerSchema },
        headers: replayedHeader,
      },
    ],
    errors: [
      "workflow_not_found",
      "workflow_not_published",
      "workflow_invalid",
      "invalid_input",
      ...IDEMPOTENCY_ERRORS,
    ],
  },
  {
    method: "get",
    path: "/api/v1/runs/{runId}",
    operationId: "getRun",
    tag: "Runs",
    summary: "Read a run",
    description: "Status, outputs, usage, the real error code, and what a waiting run asks.",
    auth: "api-key",
    action: "run.read",
    params: runPathSchema,
    success: [
      {
        status: 200,
        description: "The run.",
        content: { "application/json": runAnswerSchema.omit({ version: true }) },
      },
    ],
    errors: ["run_not_found"],
  },
  {
    method: "post",
    path: "/api/v1/runs/{runId}/cancel",
    operationId: "cancelRun",
    tag: "Runs",
    summary: "Cancel a run",
    description: "Cancels a queued, running or waiting run and answers with the run as it ended.",
    auth: "api-key",
    action: "run.cancel",
    params: runPathSchema,
    success: [{ status: 200, description: "The cancelled run.", content: { "application/json": cancelAnswerSchema } }],
    errors: ["run_not_found", "run_not_active"],
  },
  {
    method: "post",
    path: "/api/v1/runs/{runId}/resume",
    operationId: "resumeRun",
    tag: "Runs",
    summary: "Answer a waiting human-input node",
    description: "The run continues in the background; follow it with the events stream or GET /api/v1/runs/{runId}.",
    auth: "api-key",
    action: "run.resume",
    params: runPathSchema,
    body: resumeRunBodySchema,
    success: [{ status: 202, description: "The run goes on.", content: { "application/json": resumeAcceptedSchema } }],
    errors: ["run_not_found", "run_not_active", "invalid_answer"],
  },
  {
    method: "get",
    path: "/api/v1/runs/{runId}/events",
    operationId: "runEvents",
    tag: "Runs",
    summary: "Re-attach to a run's events",
    description:
      "Server-Sent Events: the persisted events after `after` (or `Last-Event-ID`), then live ones, without gaps or duplicates, until `run-end` or `run-waiting`; a comment ping every 15 s.",
    auth: "api-key",
    action: "run.read",
    params: runPathSchema,
    query: z.object({ after: z.string().optional().meta({ description: "Replay events after this seq." }) }),
    headers: [{ name: "Last-Event-ID", description: "The seq of the last event received.", schema: z.string() }],
    success: [{ status: 200, description: "The event stream.", content: { [eventStream]: runEventSchema } }],
    errors: ["run_not_found"],
  },
  {
    method: "post",
    path: "/api/v1/chat/completions",
    operationId: "createChatCompletion",
    tag: "OpenAI-compatible",
    summary: "Chat Completions with a workflow as the model",
    description:
      "`model` is the workflow slug (or `slug@version`); the last user message feeds the start node's chat query input (`chat.queryInput`, else a text input named query, message, question, input or prompt, else its only text input), earlier messages its history input (`chat.historyInput`, else an array input named history or messages); a workflow with no text input is refused with 400 `invalid_request` naming `model`. Streams like OpenAI (`delta` chunks, `[DONE]`) with `stream: true`.",
    auth: "api-key",
    action: "workflow.run",
    headers: [idempotencyHeader],
    body: chatCompletionBodySchema,
    success: [
      {
        status: 200,
        description: "A chat.completion, or chat.completion.chunk events ending with `data: [DONE]`.",
        content: { "application/json": chatCompletionSchema, [eventStream]: null },
        headers: replayedHeader,
      },
    ],
    errors: [
      "workflow_not_found",
      "workflow_version_not_found",
      "workflow_not_published",
      "workflow_invalid",
      "invalid_input",
      ...IDEMPOTENCY_ERRORS,
      "run_cancelled",
      "run_waiting",
      "run_still_running",
      "<run error code>",
    ],
    errorShape: "openai",
  },
  {
    method: "get",
    path: "/api/v1/models",
    operationId: "listModels",
    tag: "OpenAI-compatible",
    summary: "List the workflows as OpenAI models",
    description: "The published workflows this key may call; `id` is the slug to send as `model`.",
    auth: "api-key",
    action: "workflow.run",
    success: [{ status: 200, description: "The model list.", content: { "application/json": modelListSchema } }],
    errors: [],
    errorShape: "openai",
  },
  {
    method: "get",
    path: "/api/v1/models/{model}",
    operationId: "retrieveModel",
    tag: "OpenAI-compatible",
    summary: "One workflow as an OpenAI model",
    description:
      "A published workflow this key may call (`slug`), or one of its published versions (`slug@N`), as the SDKs' `models.retrieve` reads it.",
    auth: "api-key",
    action: "workflow.run",
    params: modelPathSchema,
    success: [{ status: 200, description: "The model.", content: { "application/json": modelSchema } }],
    errors: ["workflow_not_found", "workflow_version_not_found", "workflow_not_published"],
    errorShape: "openai",
  },
  {
    method: "post",
    path: "/api/v1/mcp",
    operationId: "mcp",
    tag: "MCP",
    summary: "MCP server (Streamable HTTP, stateless)",
    description:
      "Each published workflow this key may call is a tool: `inputSchema` from its start inputs, the result from its end outputs (`structuredContent` and text), a failed run as `isError` with its code; `notifications/progress` per finished node when the call carries a progressToken. Send `Accept: application/json, text/event-stream`. Transport errors (406 without that Accept, 400 for a malformed JSON-RPC message) are JSON-RPC error objects.",
    auth: "api-key",
    action: "workflow.run",
    body: jsonRpcMessageSchema,
    success: [
      {
        status: 200,
        description: "The JSON-RPC answer, as an SSE stream (with progress notifications) or JSON.",
        content: { [eventStream]: null, "application/json": jsonRpcMessageSchema },
      },
      { status: 202, description: "A notification or response from the client, accepted.", content: {} },
    ],
    errors: [],
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "openapi",
    tag: "Meta",
    summary: "This document",
    description: "OpenAPI 3.1, generated from the zod schemas the routes parse with.",
    auth: "public",
    success: [{ status: 200, description: "The document.", content: { "application/json": null } }],
    errors: [],
  },
];

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
