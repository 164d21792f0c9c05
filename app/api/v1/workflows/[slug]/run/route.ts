import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { json, route } from "@/lib/http/route";
import { deferredRunEventStream, runEventStream } from "@/lib/http/sse";
import { parseIdempotencyKey, replayedRun, startIdempotently } from "@/lib/services/idempotency";
import { planPublishedRun, publicRunResult, runEventSource, startPublishedRun } from "@/lib/services/runs";
import { publishedRunBodySchema, workflowPathSchema } from "../../../schemas";

export const dynamic = "force-dynamic";

/**
 * Runs a published version of a workflow for an API client (`version` in the body, else the
 * pinned one, else the latest). Drafts are never reachable here: publishing is what makes a
 * workflow callable. With an `Idempotency-Key`, a repeat of the same request within 24 h answers
 * with the first request's run (blocking: its result; streaming: its events from the start)
 * instead of starting another.
 */
export const POST = route(
  { auth: "api-key", params: workflowPathSchema, body: publishedRunBodySchema },
  async ({ request, principal, params, body }) => {
    const key = parseIdempotencyKey(request.headers.get("idempotency-key"));
    // A blocking caller reads only the result: the run need not send (and record) its text in pieces.
    const input = {
      inputs: body.inputs,
      version: body.version,
      textDeltas: body.response_mode === "streaming",
    };
    if (body.response_mode === "streaming" && key === undefined) {
      // Everything a 4xx depends on (key, scope, version, compile, inputs) is checked here; the
      // SSE headers then go out before the run is set up (Run row, services, engine).
      const planned = await planPublishedRun(principal, params.slug, input);
      if (planned.checked) {
        return deferredRunEventStream(
          runEventSource(),
          async (opened) => (await planned.start(opened)).runId,
          request.signal,
        );
      }
    }
    const start = await startIdempotently(principal, key, { operation: `workflow-run:${params.slug}`, body }, () =>
      startPublishedRun(principal, params.slug, input),
    );
    const { runId, done, version } = start.replayed ? await replayedRun(start.runId) : start.started;
    // A replay says so (as Stripe does), so a client can tell it did not start a second run.
    const replayHeaders: Record<string, string> = start.replayed ? { "idempotent-replayed": "true" } : {};
    if (body.response_mode === "streaming") {
      const stream = runEventStream(runEventSource(), runId, 0, request.signal);
      for (const [name, value] of Object.entries(replayHeaders)) stream.headers.set(name, value);
      return stream;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      done.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), body.timeout_seconds * 1000);
      }),
    ]);
    clearTimeout(timer);
    const result = await publicRunResult(runId);
    // Still running: the client polls GET /api/v1/runs/:id (or cancels) instead of holding on.
    return json({ ...result, version }, ended ? 200 : 202, replayHeaders);
  },
);

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);
