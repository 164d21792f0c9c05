import "server-only";
import type { RunEvent } from "../runs/run-events";
import type { RunEventSource } from "../services/runs";

export type { RunEventSource } from "../services/runs";

const encoder = new TextEncoder();

/** How long to wait for the recorder to persist events missing between the replay and the live buffer. */
const GAP_RETRY_DELAY_MS = 25;
/** Retries before the stream gives up on a gap and goes on (the recorder flushes every 25 ms). */
const GAP_RETRY_LIMIT = 80;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Formats one SSE message; `id` lets EventSource reconnect with Last-Event-ID. */
export function formatSseMessage(event: RunEvent): Uint8Array {
  return encoder.encode(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * Streams a run's events: subscribe to live events first, then replay persisted ones (again, until
 * they reach the first buffered live event), then flush the live buffer, so nothing falls into
 * the gap between the two; seq dedupes overlap.
 * Closes after `run-end` or `run-waiting` (a waiting run gets a new stream when it resumes).
 */
export function runEventStream(source: RunEventSource, runId: string, afterSeq: number, signal: AbortSignal): Response {
  let lastSeq = afterSeq;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const cleanup = () => {
    unsubscribe?.();
    if (heartbeat) clearInterval(heartbeat);
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const send = (event: RunEvent) => {
        if (closed || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        controller.enqueue(formatSseMessage(event));
        if (event.type === "run-end" || event.type === "run-waiting") close();
      };
      const buffered: RunEvent[] = [];
      let replaying = true;
      unsubscribe = source.subscribe(runId, (event) => (replaying ? buffered.push(event) : send(event)));
      signal.addEventListener("abort", close, { once: true });
      try {
        for (const event of await source.replay(runId, afterSeq)) send(event);
        // Events emitted before we subscribed but not yet written by the batched recorder are in
        // neither list: dropping them lost an iteration's start or an item's end. Wait for them.
        for (let attempt = 0; attempt < GAP_RETRY_LIMIT && !closed; attempt++) {
          const firstBuffered = Math.min(...buffered.map((event) => event.seq));
          if (buffered.length === 0 || firstBuffered <= lastSeq + 1) break;
          await sleep(GAP_RETRY_DELAY_MS);
          for (const event of await source.replay(runId, lastSeq)) {
            if (event.seq < firstBuffered) send(event);
          }
        }
        replaying = false;
        for (const event of buffered.sort((left, right) => left.seq - right.seq)) send(event);
        if (!closed && (await source.isFinished(runId))) {
          // Finished before we subscribed and its last events were still being written: replay again.
          for (const event of await source.replay(runId, lastSeq)) send(event);
          close();
        }
      } catch (error) {
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: String(error) })}\n\n`));
        close();
        return;
      }
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(": keep-alive\n\n"));
      }, 15_000);
    },
    cancel: cleanup,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
