/**
 * The table of every /api/v1 operation the OpenAPI document describes (openapi-document.ts builds
 * it): each with the zod schemas its route parses and every answer it gives.
 */
import { z } from "zod";
import { servedVersionBodySchema } from "@/app/api/workflows/[id]/versions/schema";
import type { Action } from "@/lib/services/access/policy";
import { v1EvaluationBodySchema, v1EvaluationPathSchema } from "./evaluations/schema";
import { IDEMPOTENCY_ERRORS } from "./openapi-error-codes";
import {
  cancelAnswerSchema,
  chatCompletionBodySchema,
  chatCompletionSchema,
  idempotencyKeyHeaderSchema,
  jsonRpcMessageSchema,
  modelListSchema,
  modelPathSchema,
  modelSchema,
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

/** A successful answer of an operation. */
export interface SuccessAnswer {
  status: number;
  description: string;
  /** Content type → schema of the body. */
  content: Record<string, z.ZodType | null>;
  headers?: Record<string, { description: string }>;
}

/** A header a request may send. */
export interface RequestHeader {
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
