import "server-only";
import { type ChatAnswerSource, chatAnswer } from "../services/published-api";
import { type PublicRunResult, publicRunResult, runEventSource } from "../services/runs";
import { openAiError } from "./openai-route";
import { jsonAnswer, mapError } from "./respond";
import { type RunEventFeedItem, SSE_HEADERS, startedRunFeed } from "./sse";

/** A run started for a chat completion: what the answer is made of. */
export interface ChatRun {
  /** Run id (also in `trellis.runId` and the completion id). */
  runId: string;
  /** The `model` as the client sent it (`slug` or `slug@version`). */
  model: string;
  /** Resolves when the run ends or waits for human input. */
  done: Promise<void>;
  /** Which output is the answer and which node streams it. */
  answer: ChatAnswerSource;
}

/** How long a non-streaming call holds the request, like the published endpoint's default. */
const HOLD_SECONDS = 300;

/** Partial-run codes that mean "cut by a limit", answered as OpenAI's `finish_reason: "length"`. */
const LIMIT_CODES = new Set(["step_limit_exceeded", "deadline_exceeded", "max_tokens_reached", "output_truncated"]);

/** The non-standard `trellis` field of every answer: the run behind it. */
function trellisField(result: PublicRunResult) {
  return { runId: result.runId, status: result.status, error: result.error };
}

function finishReason(result: PublicRunResult): "stop" | "length" {
  return result.status === "partial" && result.error && LIMIT_CODES.has(result.error.code) ? "length" : "stop";
}

function usageField(result: PublicRunResult) {
  const { inputTokens, outputTokens } = result.usage;
  return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

/**
 * The OpenAI error for a run that gave no answer: `failed` is a 422 `workflow_error` with the
 * run's real code; `cancelled`, `waiting` (a human-input node asks) and a run still going after
 * the hold are 409s the client can follow up with `/api/v1/runs/<runId>`. Null for an answer.
 */
function runProblem(result: PublicRunResult): { status: number; code: string; message: string } | null {
  switch (result.status) {
    case "succeeded":
    case "partial":
      return null;
    case "failed":
      return {
        status: 422,
        code: result.error?.code ?? "run_failed",
        message: result.error?.message ?? "The workflow failed.",
      };
    case "cancelled":
      return { status: 409, code: "run_cancelled", message: "The run was cancelled." };
    case "waiting":
      return {
        status: 409,
        code: "run_waiting",
        message: `The workflow waits for human input; answer with POST /api/v1/runs/${result.runId}/resume.`,
      };
    default:
      return {
        status: 409,
        code: "run_still_running",
        message: `The run is still going; follow it with GET /api/v1/runs/${result.runId}.`,
      };
  }
}

function problemBody(problem: { code: string; message: string }) {
  return { message: problem.message, code: problem.code, param: null, type: "workflow_error" };
}

/** A non-streaming chat completion: waits for the run, then answers `chat.completion` or an OpenAI error. */
export async function chatCompletionResponse(run: ChatRun): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    run.done,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, HOLD_SECONDS * 1000);
    }),
  ]);
  clearTimeout(timer);
  const result = await publicRunResult(run.runId);
  const problem = runProblem(result);
  if (problem) return openAiError(problem.status, problemBody(problem), { trellis: trellisField(result) });
  return jsonAnswer({
    id: `chatcmpl-${run.runId}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: run.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: chatAnswer(result.outputs, run.answer), refusal: null },
        logprobs: null,
        finish_reason: finishReason(result),
      },
    ],
    usage: usageField(result),
    trellis: trellisField(result),
  });
}

const encoder = new TextEncoder();

/** A streamed chat completion's run: started already (`runId`), or started by `begin` once the headers are out. */
export type ChatStreamRun = Omit<ChatRun, "runId" | "done"> &
  (
    | { runId: string; begin?: undefined }
    | { runId?: undefined; begin: (opened: (runId: string) => void) => Promise<string> }
  );

/** The OpenAI error message of a start that failed after the headers (the code a JSON answer would carry). */
async function failedStartMessage(cause: unknown, runId: string | undefined) {
  const mapped = mapError(cause);
  const { error } = (await mapped.json()) as { error: { code: string; message: string } };
  return {
    error: {
      message: error.message,
      type: mapped.status >= 500 ? "server_error" : "invalid_request_error",
      code: error.code,
      param: null,
    },
    trellis: { runId: runId ?? null, status: "failed", error: { code: error.code, message: error.message } },
  };
}

/**
 * A streaming chat completion (`stream: true`): `chat.completion.chunk` messages, the first with
 * `delta.role`, then the `text` deltas of the node that feeds the answer (the rest of the final
 * answer, or all of it when nothing streamed, follows as one chunk), a last chunk with
 * `finish_reason` and `trellis`, a `usage` chunk when asked, then `data: [DONE]`. A run that gave
 * no answer sends an `error` message instead (the OpenAI SDKs throw it as an API error).
 * Given `begin` instead of a run id, the headers go out first (with an SSE comment, which
 * clients skip) and `begin` starts the run: everything that makes the request the client's error
 * must be checked before; a start that fails then is told as an `error` message (with the run's
 * id when its row was created: the run service ended it).
 */
export function chatCompletionStream(run: ChatStreamRun, includeUsage: boolean, signal: AbortSignal): Response {
  const created = Math.floor(Date.now() / 1000);
  const source = runEventSource();
  let reader: ReadableStreamDefaultReader<RunEventFeedItem> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (value: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
      };
      const close = () => {
        if (closed) return;
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        closed = true;
        clearInterval(heartbeat);
        controller.close();
      };
      // Next sends the headers with the first chunk: a comment, before the run is set up.
      if (run.begin) controller.enqueue(encoder.encode(": accepted\n\n"));
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(": keep-alive\n\n"));
      }, 15_000);
      const begin = run.begin ?? (async () => run.runId as string);
      const started = await startedRunFeed(source, begin, signal);
      if (!started.ok) {
        send(await failedStartMessage(started.error, started.runId));
        return close();
      }
      const { runId } = started;
      reader = started.feed.getReader();
      if (closed) return void reader.cancel();
      const id = `chatcmpl-${runId}`;
      const chunk = (delta: Record<string, unknown>, finish: string | null, extra?: Record<string, unknown>) => ({
        id,
        object: "chat.completion.chunk",
        created,
        model: run.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...extra,
      });
      send(chunk({ role: "assistant", content: "" }, null));
      let streamed = "";
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || closed) break;
          if ("error" in value) throw new Error(value.error);
          const event = value.event;
          if (
            event.type === "node-delta" &&
            event.kind === "text" &&
            event.nodeId === run.answer.streamNodeId &&
            event.iterationPath.length === 0 &&
            event.delta !== ""
          ) {
            streamed += event.delta;
            send(chunk({ content: event.delta }, null));
            if (value.live) source.eventWritten?.(event);
          }
        }
        if (signal.aborted) return close();
        const result = await publicRunResult(runId);
        const problem = runProblem(result);
        if (problem) {
          send({ error: problemBody(problem), trellis: trellisField(result) });
          return close();
        }
        const answer = chatAnswer(result.outputs, run.answer);
        // What the node streamed is the answer's start; anything the deltas missed comes now.
        if (answer.startsWith(streamed) && answer.length > streamed.length) {
          send(chunk({ content: answer.slice(streamed.length) }, null));
        }
        send(chunk({}, finishReason(result), { trellis: trellisField(result) }));
        if (includeUsage) send({ ...chunk({}, null), choices: [], usage: usageField(result) });
        close();
      } catch (error) {
        console.error(error);
        send({
          error: { message: "The stream broke off on the server.", type: "server_error", code: "internal_error" },
        });
        close();
      }
    },
    cancel: async () => {
      closed = true;
      clearInterval(heartbeat);
      await reader?.cancel();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
