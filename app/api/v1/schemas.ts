import { z } from "zod";
import { resumeRunBodySchema, runPathSchema } from "@/lib/http/run-routes";
import { declaredValueTypeSchema } from "@/lib/workflow/nodes/common-schemas";
import { chatCompletionBodySchema } from "./chat/completions/schema";
import { publishedRunBodySchema } from "./workflows/[slug]/run/schema";

/*
 * The one module of /api/v1's zod schemas: the request schemas the routes parse with (defined
 * beside their routes or in lib/http and re-exported here) and the answer schemas. The OpenAPI
 * document (`openapi-document.ts`) is generated from exactly these, so it cannot drift from what
 * the routes accept.
 */

export { chatCompletionBodySchema, publishedRunBodySchema, resumeRunBodySchema, runPathSchema };

/** Path of `/api/v1/workflows/:slug/**`. */
export const workflowPathSchema = z.object({
  slug: z.string().min(1).max(200).meta({ description: "The workflow's slug (shown on its API panel)." }),
});

/** The optional `Idempotency-Key` header of run-starting calls. */
export const idempotencyKeyHeaderSchema = z.string().min(1).max(255).meta({
  description:
    "Makes the call safe to retry: the same key and body within 24 h answer with the first call's run (blocking: its result; streaming: its events from the start) and send `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`. Scoped to the API key.",
});

/** Trellis's error body on every /api/v1 route except the OpenAI-compatible ones. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Stable machine-readable code (listed per operation)." }),
      message: z.string(),
      field: z.string().optional().meta({ description: "The request field at fault, when there is one." }),
      issues: z.array(z.unknown()).optional(),
    }),
  })
  .meta({ id: "Error" });

/** The OpenAI error body of `/api/v1/chat/completions` and `/api/v1/models`. */
export const openAiErrorBodySchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string().meta({
        description:
          "invalid_request_error, authentication_error, permission_error, rate_limit_error, workflow_error, server_error",
      }),
      code: z.string().nullable(),
      param: z.string().nullable(),
    }),
  })
  .meta({ id: "OpenAiError" });

/** What API clients learn about a run (blocking answers, `GET /api/v1/runs/:id`). */
export const publicRunResultSchema = z
  .object({
    runId: z.string(),
    status: z.enum(["queued", "running", "waiting", "succeeded", "partial", "failed", "cancelled"]),
    outputs: z.record(z.string(), z.unknown()),
    error: z
      .object({
        code: z.string(),
        message: z.string().nullable(),
        nodeId: z.string().optional(),
        hint: z.string().optional(),
        missing: z.array(z.string()).optional(),
      })
      .nullable(),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cost: z.number() }),
    usesDemoModel: z.boolean(),
    waiting: z
      .object({
        nodeId: z.string(),
        prompt: z.string(),
        fields: z.array(z.unknown()),
        timeoutAt: z.number().nullable(),
      })
      .nullable(),
  })
  .meta({ id: "RunResult" });

/** A blocking run answer: the run result and the version that ran. */
export const runAnswerSchema = publicRunResultSchema.extend({ version: z.number().int() }).meta({ id: "RunAnswer" });

/** One Server-Sent Event's data: a run event (`id:` is its `seq`, `event:` its `type`). */
export const runEventSchema = z
  .looseObject({
    seq: z.number().int(),
    runId: z.string(),
    at: z.number(),
    type: z.enum([
      "run-start",
      "node-start",
      "node-delta",
      "tool-call",
      "tool-result",
      "node-retry",
      "node-end",
      "node-error",
      "iteration-start",
      "iteration-item-end",
      "run-waiting",
      "run-end",
    ]),
  })
  .meta({ id: "RunEvent" });

/** One declared input of a published workflow. */
export const workflowInputSchema = z.object({
  name: z.string(),
  type: declaredValueTypeSchema,
  required: z.boolean(),
  description: z.string().optional(),
  default: z.unknown().optional(),
});

/** A published workflow as discovery describes it. */
export const workflowDescriptionSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.number().int().meta({ description: "The published version calls are served by now." }),
    inputs: z.array(workflowInputSchema),
    allow_extra_inputs: z.boolean(),
    input_schema: z.record(z.string(), z.unknown()).meta({ description: "The inputs as a JSON Schema." }),
    outputs: z.array(z.object({ name: z.string() })),
    chat: z
      .object({
        query_input: z.string().meta({ description: "The input the last user message goes to." }),
        history_input: z.string().nullable().meta({ description: "The input the earlier messages go to, if any." }),
        answer_output: z
          .string()
          .nullable()
          .meta({ description: "The output sent back as the answer; null: the first string output." }),
      })
      .nullable()
      .meta({ description: "How chat completions feed it; null: it has no text input, so it is not a chat model." }),
    endpoints: z.object({
      run: z.string(),
      chat_model: z
        .string()
        .nullable()
        .meta({ description: "The `model` of a chat completion; null: not a chat model." }),
      mcp: z.string(),
    }),
  })
  .meta({ id: "Workflow" });

/** `GET /api/v1/workflows`. */
export const workflowListSchema = z.object({ data: z.array(workflowDescriptionSchema) });

/** One published workflow as OpenAI's model object (`id` is the slug, or `slug@N` when asked for). */
export const modelSchema = z
  .object({ id: z.string(), object: z.literal("model"), created: z.number(), owned_by: z.string() })
  .meta({ id: "Model" });

/** `GET /api/v1/models` (OpenAI's model list; `id` is the slug). */
export const modelListSchema = z.object({ object: z.literal("list"), data: z.array(modelSchema) });

/** `GET /api/v1/models/{model}`. */
export const modelPathSchema = z.object({
  model: z
    .string()
    .min(1)
    .max(220)
    .meta({ description: "A workflow's slug, or `slug@N` for one of its published versions." }),
});

/** A non-streaming `chat.completion` (the fields Trellis fills; `trellis` names the run). */
export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number(),
      message: z.object({ role: z.literal("assistant"), content: z.string() }),
      finish_reason: z.enum(["stop", "length"]),
    }),
  ),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }),
  trellis: z.object({ runId: z.string(), status: z.string() }).loose(),
});

/** `POST /api/v1/runs/:id/resume` answer. */
export const resumeAcceptedSchema = z.object({ ok: z.literal(true), runId: z.string(), status: z.literal("running") });

/** `POST /api/v1/runs/:id/cancel` answer. */
export const cancelAnswerSchema = publicRunResultSchema.extend({ ok: z.literal(true) });

/** A JSON-RPC 2.0 message of the MCP Streamable HTTP transport. */
export const jsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
  })
  .meta({ id: "JsonRpcMessage" });
