import "server-only";
import type { RunEvent } from "../runs/run-events";
import type { RunEventSource } from "../services/runs";
import { mapError } from "./respond";

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
 * One item of a run's event feed: an event in `seq` order (`live` when it came from the live
 * subscription rather than the persisted replay), or why the feed broke off.
 */
export type RunEventFeedItem = { event: RunEvent; live: boolean } | { error: string };

/**
 * A run's events as objects: subscribe to live events first, then replay persisted ones (again,
 * until they reach the first buffered live event), then flush the live buffer, so nothing falls
 * into the gap between the two; seq dedupes overlap. Ends after `run-end` or `run-waiting`.
 * Shared by the Trellis SSE stream and the OpenAI-compatible chat stream.
 */
export function runEventFeed(
  source: RunEventSource,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
): ReadableStream<RunEventFeedItem> {
  let lastSeq = afterSeq;
  let unsubscribe: (() => void) | undefined;
  return new ReadableStream<RunEventFeedItem>({
    async start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe?.();
        controller.close();
      };
      const send = (event: RunEvent, live = false) => {
        if (closed || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        controller.enqueue({ event, live });
        if (event.type === "run-end" || event.type === "run-waiting") close();
      };
      const buffered: RunEvent[] = [];
      let replaying = true;
      // Live events after the replay go through one ordered pump: an event that skips seqs (they
      // were emitted before this subscription existed, or by a worker in another process whose
      // recorder had not written them when we replayed) waits for the missing ones from the store.
      const live: RunEvent[] = [];
      let pumping = false;
      const pump = async () => {
        if (pumping) return;
        pumping = true;
        try {
          while (live.length > 0 && !closed) {
            const event = live.shift()!;
            // The run-end of a run ended outside the engine sorts after everything and is not stored.
            if (event.seq > lastSeq + 1 && event.seq !== Number.MAX_SAFE_INTEGER) {
              for (let attempt = 0; attempt < GAP_RETRY_LIMIT && !closed && event.seq > lastSeq + 1; attempt++) {
                for (const missing of await source.replay(runId, lastSeq)) if (missing.seq < event.seq) send(missing);
                if (event.seq > lastSeq + 1) await sleep(GAP_RETRY_DELAY_MS);
              }
            }
            send(event, true);
          }
        } catch (error) {
          if (!closed) controller.enqueue({ error: String(error) });
          close();
        } finally {
          pumping = false;
        }
      };
      const deliver = (event: RunEvent) => {
        live.push(event);
        void pump();
      };
      unsubscribe = source.subscribe(runId, (event) => {
        if (!replaying) return deliver(event);
        // The very next event needs nothing from the store: sent at once, not after the replay's
        // query (a stream opened with its run sees its first event as soon as it is emitted).
        if (buffered.length === 0 && event.seq === lastSeq + 1) return send(event, true);
        buffered.push(event);
      });
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
        for (const event of buffered.sort((left, right) => left.seq - right.seq)) deliver(event);
        if (!closed && (await source.isFinished(runId))) {
          // Finished before we subscribed and its last events were still being written: replay again.
          for (const event of await source.replay(runId, lastSeq)) send(event);
          close();
        }
      } catch (error) {
        if (!closed) controller.enqueue({ error: String(error) });
        close();
      }
    },
    cancel: () => unsubscribe?.(),
  });
}

/**
 * Streams a run's events as SSE (see `runEventFeed` for the gap-free order), with heartbeats.
 * Closes after `run-end` or `run-waiting` (a waiting run gets a new stream when it resumes).
 */
export function runEventStream(source: RunEventSource, runId: string, afterSeq: number, signal: AbortSignal): Response {
  return sseResponse(source, async () => runEventFeed(source, runId, afterSeq, signal).getReader());
}

/** What `startedRunFeed` opened: the run and its feed, or why the start failed (with the run's id when its row was created). */
export type StartedRunFeed =
  | { ok: true; runId: string; feed: ReadableStream<RunEventFeedItem> }
  | { ok: false; error: unknown; runId: string | undefined };

/**
 * Starts a run with `begin` and opens its event feed the moment its Run row exists (`begin` hands
 * the id to `opened` before the run executes or is queued), so its events are all seen live, in
 * order, none waiting on the store. A failed start is returned, not thrown; when its row had been
 * created, the run service has ended it.
 */
export async function startedRunFeed(
  source: RunEventSource,
  begin: (opened: (runId: string) => void) => Promise<string>,
  signal: AbortSignal,
): Promise<StartedRunFeed> {
  let feed: ReadableStream<RunEventFeedItem> | undefined;
  let createdId: string | undefined;
  // The answer's first chunk (its headers and the `: accepted` comment) reaches the socket before
  // the run is set up: the server writes it from a nextTick or a microtask, both before this
  // setImmediate, whereas `begin` starts with synchronous work (the Run row's INSERT on SQLite).
  await new Promise((resolve) => setImmediate(resolve));
  try {
    const runId = await begin((id) => {
      createdId = id;
      feed = runEventFeed(source, id, 0, signal);
    });
    return { ok: true, runId, feed: feed ?? runEventFeed(source, runId, 0, signal) };
  } catch (error) {
    await feed?.cancel().catch(() => undefined);
    return { ok: false, error, runId: createdId };
  }
}

/** The first chunk of a deferred stream: an SSE comment (clients ignore it) that makes the server send the headers. */
const ACCEPTED_COMMENT = encoder.encode(": accepted\n\n");

/**
 * An SSE answer whose headers go out before the run is set up: its first chunk is a comment, and
 * Next sends the headers with the first chunk. `begin` then creates the run (handing its id to
 * `opened` as soon as the row exists, see `startedRunFeed`) and its events follow as in
 * `runEventStream`. Everything that makes a request the client's error must be checked before
 * this is called: once the headers are out, a failing `begin` can only be told in the stream, as
 * an `error` event then a `run-end` with status `failed` (with the run's id when a row was
 * created: the run service ended it, so none is left `running`).
 */
export function deferredRunEventStream(
  source: RunEventSource,
  begin: (opened: (runId: string) => void) => Promise<string>,
  signal: AbortSignal,
): Response {
  return sseResponse(
    source,
    async () => {
      const started = await startedRunFeed(source, begin, signal);
      return started.ok ? started.feed.getReader() : failedStart(started.error, started.runId);
    },
    ACCEPTED_COMMENT,
  );
}

/** The body of a run start that failed after the headers: `error`, then `run-end` with status `failed`. */
async function failedStart(
  cause: unknown,
  runId: string | undefined,
): Promise<ReadableStreamDefaultReader<Uint8Array | RunEventFeedItem>> {
  // The same code and message a JSON answer would carry (a 500 is logged and says nothing more).
  const { error } = (await mapError(cause).json()) as { error: { code: string; message: string } };
  const runEnd = {
    type: "run-end",
    runId: runId ?? null,
    status: "failed",
    outputs: {},
    error: { code: error.code, message: error.message },
    usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
  };
  const text = `event: error\ndata: ${JSON.stringify(error)}\n\nevent: run-end\ndata: ${JSON.stringify(runEnd)}\n\n`;
  return new ReadableStream<Uint8Array | RunEventFeedItem>({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  }).getReader();
}

/**
 * The SSE Response over a feed, with a heartbeat every 15 s. The feed is opened at once (not on
 * the first read): a run's live subscription must exist before its next events are emitted.
 */
function sseResponse(
  source: RunEventSource,
  open: () => Promise<ReadableStreamDefaultReader<Uint8Array | RunEventFeedItem>>,
  preamble?: Uint8Array,
): Response {
  const opening = open();
  let reader: ReadableStreamDefaultReader<Uint8Array | RunEventFeedItem> | undefined;
  /** A read that was not done when a chunk was sent: the next pull awaits it. */
  let pending: Promise<ReadableStreamReadResult<Uint8Array | RunEventFeedItem>> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (preamble) controller.enqueue(preamble);
      heartbeat = setInterval(() => controller.enqueue(encoder.encode(": keep-alive\n\n")), 15_000);
    },
    async pull(controller) {
      reader ??= await opening;
      if (cancelled) {
        await reader.cancel();
        return;
      }
      // One chunk per pull holds the first item and every item the feed already holds (events
      // emitted together, like a run's start and its first nodes): each chunk is a socket write,
      // and on loopback a write that wakes the reader costs ~0.1 ms of this thread.
      const parts: Uint8Array[] = [];
      let result = await (pending ?? reader.read());
      pending = undefined;
      for (;;) {
        if (result.done) {
          clearInterval(heartbeat);
          if (parts.length > 0) controller.enqueue(concatenated(parts));
          controller.close();
          return;
        }
        parts.push(sseBytes(source, result.value));
        const next = reader.read();
        const ready = await Promise.race([next, notReady]);
        if (ready === NOT_READY) {
          pending = next;
          break;
        }
        result = ready;
      }
      controller.enqueue(concatenated(parts));
    },
    cancel: async () => {
      cancelled = true;
      clearInterval(heartbeat);
      await (reader ?? (await opening)).cancel();
    },
  });
  return new Response(stream, {
    headers: SSE_HEADERS,
  });
}

/** Raced after a read: a read already done settles the race first (its reaction is queued first). */
const NOT_READY = Symbol("not ready");
const notReady = Promise.resolve(NOT_READY);

/** The bytes of one feed item; a live event is reported written (event-stream lag). */
function sseBytes(source: RunEventSource, value: Uint8Array | RunEventFeedItem): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (!("event" in value)) return encoder.encode(`event: error\ndata: ${JSON.stringify({ message: value.error })}\n\n`);
  // Event-stream lag: replayed events are history, only live ones say how late delivery is.
  if (value.live) source.eventWritten?.(value.event);
  return formatSseMessage(value.event);
}

function concatenated(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/** Headers of every Server-Sent Events answer (no proxy buffering or transformation). */
export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};
