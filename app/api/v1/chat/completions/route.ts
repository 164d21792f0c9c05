import { chatCompletionResponse, chatCompletionStream } from "@/lib/http/chat-completions";
import { corsPreflight } from "@/lib/http/cors";
import { modelErrorAnswer, openAiMethodNotAllowed, openAiRoute } from "@/lib/http/openai-route";
import { parseIdempotencyKey, replayedRun, startIdempotently } from "@/lib/services/idempotency";
import { chatAnswerSourceOf, planChatRun, startChatRun } from "@/lib/services/published-api";
import { chatCompletionBodySchema, messageText } from "./schema";

export const dynamic = "force-dynamic";

/**
 * The OpenAI-compatible face of published workflows: `model` is the workflow slug (or
 * `slug@version`), the messages feed the start node as its chat settings say, and the answer is
 * a Chat Completions answer, streamed or not. Errors are in OpenAI's shape.
 */
export const POST = openAiRoute(
  { auth: "api-key", body: chatCompletionBodySchema },
  async ({ request, principal, body }) => {
    const messages = body.messages.map((message) => ({ role: message.role, content: messageText(message.content) }));
    const key = parseIdempotencyKey(request.headers.get("idempotency-key"));
    const includeUsage = body.stream_options?.include_usage === true;
    let started: { runId: string; done: Promise<void>; answer: ReturnType<typeof chatAnswerSourceOf> };
    let replayed = false;
    try {
      if (key === undefined) {
        // Everything a 4xx depends on (model, messages, version, compile, inputs) is checked here.
        const planned = await planChatRun(principal, body.model, messages, { stream: body.stream === true });
        if (body.stream && planned.checked) {
          // The headers go out before the run is set up (Run row, services, engine).
          const begin = async (opened: (runId: string) => void) => (await planned.start(opened)).runId;
          return chatCompletionStream(
            { model: body.model, answer: planned.answer, begin },
            includeUsage,
            request.signal,
          );
        }
        started = { ...(await planned.start()), answer: planned.answer };
      } else {
        const start = await startIdempotently(principal, key, { operation: "chat-completions", body }, () =>
          startChatRun(principal, body.model, messages, { stream: body.stream === true }),
        );
        if (start.replayed) {
          // The same request again: answer from (or re-attach to) the first request's run.
          const run = await replayedRun(start.runId);
          started = { runId: run.runId, done: run.done, answer: chatAnswerSourceOf(run.document) };
          replayed = true;
        } else started = start.started;
      }
    } catch (error) {
      const answer = modelErrorAnswer(error);
      if (answer) return answer;
      throw error;
    }
    const run = { runId: started.runId, model: body.model, done: started.done, answer: started.answer };
    const response = body.stream
      ? chatCompletionStream(run, includeUsage, request.signal)
      : await chatCompletionResponse(run);
    if (replayed) response.headers.set("idempotent-replayed", "true");
    return response;
  },
);

const notAllowed = openAiMethodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);
