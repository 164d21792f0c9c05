import { describe, expect, it, vi } from "vitest";
import { apiKeyRequest, readText, sseMessages, useGatedPublishedApi } from "@/lib/services/testing/published-api";
import { POST } from "./route";

/**
 * A streamed chat completion sends its headers before the run is set up (Run row, services,
 * engine), while everything that makes a request the client's error is still an OpenAI-shaped
 * JSON 4xx; a start that fails after the headers is an `error` message in the stream.
 */
function chat(body: Record<string, unknown>, key: string): Promise<Response> {
  return POST(apiKeyRequest("/api/v1/chat/completions", key, body), { params: Promise.resolve({}) });
}

const ask = (content: string, model = "greeter") => ({ model, stream: true, messages: [{ role: "user", content }] });

describe("streamed chat completions: headers first", () => {
  const suite = useGatedPublishedApi();

  it("answers with the headers before the Run row exists, then streams the answer to [DONE]", async () => {
    suite.runs.hold();
    const before = await suite.test.db.run.count();
    const response = await chat(ask("Ada"), suite.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The first chunk is there while the run's start is still held: an SSE comment clients skip.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": accepted\n\n");
    // The start begins one event-loop turn after the first chunk (lib/http/sse.ts), then is held.
    expect(suite.runs.starts).toBe(0);
    await vi.waitFor(() => expect(suite.runs.starts).toBe(1));
    expect(await suite.test.db.run.count()).toBe(before);
    suite.runs.release();
    const text = await readText(reader);
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const chunks = sseMessages(text.replace("data: [DONE]", "")).map((message) => message.data);
    const runId = (chunks.at(-1)?.trellis as { runId: string } | undefined)?.runId;
    expect(chunks[0]).toMatchObject({ id: `chatcmpl-${runId}`, choices: [{ delta: { role: "assistant" } }] });
    const answer = chunks.map((chunk) => (chunk.choices as { delta: { content?: string } }[])[0]?.delta.content ?? "");
    expect(answer.join("")).toBe("Hello, Ada!");
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: "stop" }], trellis: { status: "succeeded" } });
    expect(await suite.test.db.run.count()).toBe(before + 1);
  });

  it("still answers bad requests with an OpenAI-shaped JSON 4xx and starts nothing", async () => {
    const startsBefore = suite.runs.starts;
    const cases: [Record<string, unknown>, number, string][] = [
      [ask("Ada", "missing"), 404, "workflow_not_found"],
      [ask("Ada", "greeter@9"), 404, "workflow_version_not_found"],
      [{ ...ask("Ada"), messages: [{ role: "system", content: "no user" }] }, 400, "invalid_request"],
      [ask(""), 422, "invalid_input"],
    ];
    for (const [body, status, code] of cases) {
      const response = await chat(body, suite.secret);
      expect(response.status, code).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect((await response.json()).error).toMatchObject({ code });
    }
    expect(suite.runs.starts).toBe(startsBefore);
  });

  it("tells a start that fails after the headers as an error message, and leaves no run running", async () => {
    suite.runs.failWith = new Error("the database went away");
    const response = await chat(ask("Ada"), suite.secret);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const [failure] = sseMessages(text.replace("data: [DONE]", ""));
    // The error says no more than a JSON 500 would.
    expect(failure?.data).toMatchObject({
      error: { type: "server_error", code: "internal_error", message: "Something went wrong on the server." },
      trellis: { runId: null, status: "failed" },
    });
    expect(await suite.test.db.run.count({ where: { status: { in: ["running", "queued"] } } })).toBe(0);
  });
});
