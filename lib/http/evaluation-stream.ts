import "server-only";
import type { EvaluationTrialBody } from "../services/evaluation-queries";
import type { EvaluationChange, watchEvaluation } from "../services/evaluation-runner";
import { SSE_HEADERS } from "./sse";

const encoder = new TextEncoder();

/** How often a stream of an evaluation run by another process re-reads the store. */
export const REMOTE_EVALUATION_POLL_MS = 2000;
const HEARTBEAT_MS = 15_000;

type Watch = Awaited<ReturnType<typeof watchEvaluation>>;

const trialKey = (trial: Pick<EvaluationTrialBody, "caseId" | "trial">) => `${trial.caseId}\u0000${trial.trial}`;

/**
 * An evaluation's progress as SSE: `snapshot` (the whole evaluation as `GET /api/evaluations/:id`
 * answers it), then one `trial` per finished trial (with the report after it), then `end` (status,
 * error, final report), then the stream closes. Like the run streams it subscribes before reading
 * the snapshot, so no trial falls between the two (a trial in both is sent once). An evaluation
 * this process does not run (another web process) is followed by re-reading the store.
 */
export function evaluationEventStream(watch: Watch, signal: AbortSignal, options: { pollMs?: number } = {}): Response {
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const sent = new Set<string>();
      const timers: ReturnType<typeof setInterval>[] = [];
      const send = (event: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const handle = (change: EvaluationChange) => {
        if (change.type === "trial") {
          const key = trialKey(change.trial);
          if (sent.has(key)) return;
          sent.add(key);
          send("trial", { trial: change.trial, report: change.report });
          return;
        }
        send("end", change);
        close();
      };
      const buffered: EvaluationChange[] = [];
      let ready = false;
      const unsubscribe = watch.subscribe((change) => (ready ? handle(change) : buffered.push(change)));
      cleanup = () => {
        unsubscribe();
        for (const timer of timers) clearInterval(timer);
      };
      signal.addEventListener("abort", close, { once: true });
      timers.push(setInterval(() => !closed && controller.enqueue(encoder.encode(": keep-alive\n\n")), HEARTBEAT_MS));
      try {
        const snapshot = await watch.snapshot();
        for (const trial of snapshot.trials) sent.add(trialKey(trial));
        send("snapshot", snapshot);
        if (snapshot.evaluation.status !== "running") return close();
        ready = true;
        for (const change of buffered) handle(change);
        if (closed || watch.isLocal()) return;
        // Run elsewhere (or orphaned): follow the store.
        let polling = false;
        timers.push(
          setInterval(async () => {
            if (closed || polling) return;
            polling = true;
            try {
              const now = await watch.snapshot();
              for (const trial of now.trials) handle({ type: "trial", trial, report: now.report });
              if (now.evaluation.status !== "running")
                handle({
                  type: "end",
                  status: now.evaluation.status,
                  errorCode: now.evaluation.errorCode,
                  errorMessage: now.evaluation.errorMessage,
                  report: now.report,
                });
            } catch (error) {
              send("error", { message: String(error) });
              close();
            } finally {
              polling = false;
            }
          }, options.pollMs ?? REMOTE_EVALUATION_POLL_MS),
        );
      } catch (error) {
        send("error", { message: String(error) });
        close();
      }
    },
    cancel: () => cleanup(),
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
