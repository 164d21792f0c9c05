import { describe, expect, it, vi } from "vitest";
import {
  apiKeyRequest,
  readText,
  sseMessages as sseEvents,
  useGatedPublishedApi,
} from "@/lib/services/testing/published-api";
import { POST } from "./route";

/**
 * A streamed published run sends its SSE headers before the run is set up (Run row, services,
 * engine), while everything that makes a request the client's error is still a JSON 4xx; a start
 * that fails after the headers is told in the stream (`error`, then `run-end` failed).
 */
function call(body: unknown, key: string, slug = "greeter"): Promise<Response> {
  return POST(apiKeyRequest(`/api/v1/workflows/${slug}/run`, key, body), { params: Promise.resolve({ slug }) });
}

describe("streamed published runs: headers first", () => {
  const suite = useGatedPublishedApi();

  it("answers with the SSE headers before the Run row exists, then streams the run to run-end", async () => {
    suite.runs.hold();
    const before = await suite.test.db.run.count();
    const response = await call({ inputs: { name: "Grace" }, response_mode: "streaming" }, suite.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The first chunk is there while the run's start is still held: no Run row yet.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(": accepted\n\n");
    // The start begins one event-loop turn after the first chunk (lib/http/sse.ts), then is held.
    expect(suite.runs.starts).toBe(0);
    await vi.waitFor(() => expect(suite.runs.starts).toBe(1));
    expect(await suite.test.db.run.count()).toBe(before);
    suite.runs.release();
    const text = await readText(reader);
    const events = sseEvents(text);
    expect(events[0]?.data.type).toBe("run-start");
    expect(events.at(-1)?.data).toMatchObject({
      type: "run-end",
      status: "succeeded",
      outputs: { greeting: "Hello, Grace!" },
    });
    expect(events.map((event) => event.data.seq)).toEqual(events.map((_, index) => index + 1));
    expect(await suite.test.db.run.count()).toBe(before + 1);
  });

  it("still answers bad requests with a JSON 4xx and starts nothing", async () => {
    const before = await suite.test.db.run.count();
    const startsBefore = suite.runs.starts;
    const cases: [unknown, string, number, string][] = [
      [{ inputs: {}, response_mode: "streaming" }, suite.secret, 422, "invalid_input"],
      [{ inputs: { name: 42 }, response_mode: "streaming" }, suite.secret, 422, "invalid_input"],
      [
        { inputs: { name: "Ada" }, version: 9, response_mode: "streaming" },
        suite.secret,
        404,
        "workflow_version_not_found",
      ],
      [{ inputs: "nope", response_mode: "streaming" }, suite.secret, 400, "invalid_request"],
      [{ inputs: { name: "Ada" }, response_mode: "streaming" }, "trl_unknown", 401, "invalid_api_key"],
    ];
    for (const [body, key, status, code] of cases) {
      const response = await call(body, key);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect((await response.json()).error.code).toBe(code);
    }
    const missing = await call({ inputs: { name: "Ada" }, response_mode: "streaming" }, suite.secret, "missing");
    expect(missing.status).toBe(404);
    expect(suite.runs.starts).toBe(startsBefore);
    expect(await suite.test.db.run.count()).toBe(before);
  });

  it("tells a start that fails after the headers as an SSE error and a failed run-end, and leaves no run running", async () => {
    suite.runs.failWith = new Error("the database went away");
    const response = await call({ inputs: { name: "Ada" }, response_mode: "streaming" }, suite.secret);
    expect(response.status).toBe(200);
    const events = sseEvents(await response.text());
    expect(events.map((event) => event.event)).toEqual(["error", "run-end"]);
    // The error says no more than a JSON 500 would.
    expect(events[0]?.data).toEqual({ code: "internal_error", message: "Something went wrong on the server." });
    expect(events[1]?.data).toMatchObject({
      type: "run-end",
      status: "failed",
      error: { code: "internal_error" },
    });
    expect(await suite.test.db.run.count({ where: { status: { in: ["running", "queued"] } } })).toBe(0);
  });

  it("opens the run's feed as its row is created: every event arrives live, none waits for the store", async () => {
    // The replay of stored events is held: what the client gets meanwhile came live.
    let releaseReplay!: () => void;
    const replayHeld = new Promise<void>((resolve) => {
      releaseReplay = resolve;
    });
    const replay = suite.runs.replay.bind(suite.runs);
    suite.runs.replay = async (runId, afterSeq) => {
      await replayHeld;
      return replay(runId, afterSeq);
    };
    try {
      const response = await call({ inputs: { name: "Live" }, response_mode: "streaming" }, suite.secret);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = await readText(reader, (sofar) => sofar.includes("event: run-end"));
      releaseReplay();
      text += await readText(reader);
      const events = sseEvents(text);
      expect(events[0]?.data.type).toBe("run-start");
      expect(events.at(-1)?.data).toMatchObject({ type: "run-end", status: "succeeded" });
      expect(events.map((event) => event.data.seq)).toEqual(events.map((_, index) => index + 1));
    } finally {
      releaseReplay();
      suite.runs.replay = replay;
    }
  });
});
