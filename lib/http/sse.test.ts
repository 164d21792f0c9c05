import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunEvent } from "../runs/run-events";
import { deferredRunEventStream, type RunEventSource, runEventStream } from "./sse";

function event(seq: number, type: RunEvent["type"] = "node-delta"): RunEvent {
  return { type, runId: "run-1", seq, at: seq } as unknown as RunEvent;
}

async function readSeqs(response: Response): Promise<number[]> {
  const text = await response.text();
  return [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
}

/** A source replaying `persisted` (as it is when asked) and handing live events to `live`. */
function testSource(persisted: RunEvent[]): { source: RunEventSource; live: (event: RunEvent) => void } {
  let listener: ((event: RunEvent) => void) | undefined;
  const source: RunEventSource = {
    replay: async (_runId, afterSeq) => persisted.filter((candidate) => candidate.seq > afterSeq),
    subscribe: (_runId, onEvent) => {
      listener = onEvent;
      return () => undefined;
    },
    isFinished: async () => false,
  };
  return { source, live: (event) => listener?.(event) };
}

describe("runEventStream", () => {
  it("waits for events the recorder had not persisted yet instead of skipping them", async () => {
    // Events 1–2 are persisted; 3–4 were emitted before the subscription and are written 60 ms later;
    // 5 and the run end arrive live.
    const persisted = [event(1), event(2)];
    const { source, live } = testSource(persisted);
    const response = runEventStream(source, "run-1", 0, new AbortController().signal);
    live(event(5));
    live(event(6, "run-end"));
    setTimeout(() => persisted.push(event(3), event(4)), 60);
    expect(await readSeqs(response)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("heartbeat", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends a keep-alive comment every 15 s while the run is quiet, and stops with the run", async () => {
    // Only the interval is faked: the stream's own awaits and the test's short waits stay real.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { source, live } = testSource([event(1, "run-start")]);
    const reader = (
      runEventStream(source, "run-1", 0, new AbortController().signal).body as ReadableStream<Uint8Array>
    ).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toContain("id: 1\n");
    const next = reader.read();
    const quiet = Symbol("quiet");
    const within = (milliseconds: number) =>
      Promise.race([next, new Promise((resolve) => setTimeout(() => resolve(quiet), milliseconds))]);
    vi.advanceTimersByTime(14_999);
    expect(await within(30)).toBe(quiet);
    vi.advanceTimersByTime(1);
    expect(decoder.decode(((await within(1_000)) as ReadableStreamReadResult<Uint8Array>).value)).toBe(
      ": keep-alive\n\n",
    );
    vi.advanceTimersByTime(15_000);
    expect(decoder.decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    live(event(2, "run-end"));
    expect(decoder.decode((await reader.read()).value)).toContain("event: run-end");
    expect((await reader.read()).done).toBe(true);
    // The run ended: no interval is left to keep a finished stream (or the process) alive.
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SSE chunks", () => {
  it("sends the events the feed already holds in one chunk, and a later event in the next", async () => {
    const { source, live } = testSource([event(1, "run-start"), event(2, "node-start"), event(3, "node-end")]);
    const reader = (
      runEventStream(source, "run-1", 0, new AbortController().signal).body as ReadableStream<Uint8Array>
    ).getReader();
    const decoder = new TextDecoder();
    const seqsOf = (chunk: Uint8Array | undefined) =>
      [...decoder.decode(chunk).matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    // The replay's three events were all there when the first chunk was made: one socket write.
    expect(seqsOf((await reader.read()).value)).toEqual([1, 2, 3]);
    const next = reader.read();
    setTimeout(() => live(event(4)), 20);
    expect(seqsOf((await next).value)).toEqual([4]);
    live(event(5));
    live(event(6, "run-end"));
    expect(seqsOf((await reader.read()).value)).toEqual([5, 6]);
    expect((await reader.read()).done).toBe(true);
  });
});

describe("deferredRunEventStream", () => {
  it("sets the run up only after the answer's first chunk could be written (one event-loop turn later)", async () => {
    const { source, live } = testSource([]);
    const steps: string[] = [];
    const response = deferredRunEventStream(
      source,
      async (opened) => {
        steps.push("begin");
        opened("run-1");
        return "run-1";
      },
      new AbortController().signal,
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // What a server does with the first chunk (the headers go with it) happens before the run's setup.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    steps.push("first chunk written");
    expect(first).toBe(": accepted\n\n");
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(steps).toEqual(["first chunk written", "begin"]);
    live(event(1, "run-start"));
    live(event(2, "run-end"));
    const rest = new TextDecoder().decode((await reader.read()).value);
    expect(rest).toContain("id: 1");
  });
});
