/**
 * Re-attaching to a published run's events with an API key, over real HTTP: the client's stream
 * is dropped mid-answer twice and picked up with `Last-Event-ID` and then `?after=`; what the
 * three connections delivered must be exactly the run's whole event sequence.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { saveProvider } from "@/lib/db/provider-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { type RouteServer, startRouteServer } from "@/lib/http/testing/route-server";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { readText } from "@/lib/services/testing/published-api";
import { askFlow } from "../../../testing/openai-api-fixture";
import { POST as runWorkflow } from "../../../workflows/[slug]/run/route";
import { GET as runEvents } from "./route";

/** One SSE message as the client parsed it. */
interface Received {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/** The whole SSE messages of `text` that carry an event (comments such as `: keep-alive` carry none). */
function eventsIn(text: string): Received[] {
  // The last block may be cut by a drop: a message never delivered whole, which is what Last-Event-ID is for.
  return text
    .split("\n\n")
    .slice(0, -1)
    .flatMap((block) => {
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id === undefined || data === undefined) return [];
      const parsed = JSON.parse(data) as Record<string, unknown>;
      return [{ id: Number(id), type: String(parsed.type), data: parsed }];
    });
}

/**
 * Reads `response`'s events until `stop` holds for those read (then drops the connection with
 * `abort`: `ended` is false) or the stream ends.
 */
async function readEvents(
  response: Response,
  abort: AbortController,
  stop: (received: Received[]) => boolean = () => false,
): Promise<{ received: Received[]; ended: boolean }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const received = eventsIn(await readText(reader, (text) => stop(eventsIn(text))));
  if (!stop(received)) return { received, ended: true };
  abort.abort();
  await reader.cancel().catch(() => undefined);
  return { received, ended: false };
}

describe("GET /api/v1/runs/:runId/events with an API key", () => {
  let test: TestDatabase;
  let fake: FakeOpenAIServer;
  let api: RouteServer;
  let secret: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    fake = await startFakeOpenAIServer();
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    await saveProvider(workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-fake" });
    const { id } = await createWorkflow(workspaceId, { name: "Ask", userId: ownerId, draft: askFlow });
    await publishWorkflow(id, { note: "", userId: ownerId });
    secret = (await createApiKey(workspaceId, { name: "client", scopes: ["run"] })).secret;
    api = await startRouteServer({
      "POST /api/v1/workflows/[slug]/run": runWorkflow,
      "GET /api/v1/runs/[runId]/events": runEvents,
    });
  });
  afterAll(async () => {
    await api?.close();
    await fake?.close();
    await test?.dispose();
  });

  const auth = () => ({ authorization: `Bearer ${secret}` });

  it("re-attaches after dropped connections mid-answer: the pieces concatenate to exactly the whole sequence, ending with run-end", async () => {
    // Twelve words, 40 ms apart: the answer streams for about half a second.
    const words = "one two three four five six seven eight nine ten eleven twelve".split(" ");
    fake.script({ textChunks: words.map((word, index) => (index === 0 ? word : ` ${word}`)), chunkDelayMs: 40 });
    const deltas = (received: Received[]) => received.filter((event) => event.type === "node-delta").length;

    // 1. The streamed run, dropped after its first text piece.
    const first = new AbortController();
    const started = await fetch(`${api.origin}/api/v1/workflows/ask/run`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ inputs: { question: "count" }, response_mode: "streaming" }),
      signal: first.signal,
    });
    expect(started.status).toBe(200);
    const one = await readEvents(started, first, (received) => deltas(received) >= 1);
    expect(one.ended).toBe(false);
    const runId = one.received[0]?.data.runId as string;
    expect(one.received[0]?.type).toBe("run-start");

    // 2. Re-attached with Last-Event-ID, dropped again after two more pieces.
    const second = new AbortController();
    const attached = await fetch(`${api.origin}/api/v1/runs/${runId}/events`, {
      headers: { ...auth(), "last-event-id": String(one.received.at(-1)?.id) },
      signal: second.signal,
    });
    expect(attached.status).toBe(200);
    expect(attached.headers.get("content-type")).toContain("text/event-stream");
    const two = await readEvents(attached, second, (received) => deltas(received) >= 2);
    expect(two.ended).toBe(false);

    // 3. Re-attached with `?after=` (the query form), read to the end.
    const third = await fetch(`${api.origin}/api/v1/runs/${runId}/events?after=${two.received.at(-1)?.id}`, {
      headers: auth(),
    });
    const rest = await readEvents(third, new AbortController());
    expect(rest.ended).toBe(true);
    expect(rest.received.at(-1)).toMatchObject({ type: "run-end", data: { status: "succeeded" } });

    // Both drops were mid-answer: text pieces came after each of them.
    expect(deltas(two.received)).toBeGreaterThan(0);
    expect(deltas(rest.received)).toBeGreaterThan(0);

    // No event lost or repeated: the ids are 1..n in order across the three connections.
    const pieces = [...one.received, ...two.received, ...rest.received];
    expect(pieces.map((event) => event.id)).toEqual(pieces.map((_, index) => index + 1));
    expect(
      pieces
        .filter((event) => event.type === "node-delta" && event.data.kind === "text")
        .map((event) => event.data.delta)
        .join(""),
    ).toBe(words.join(" "));

    // And they are the run's whole sequence, as a client attaching after the end replays it.
    const whole = await readEvents(
      await fetch(`${api.origin}/api/v1/runs/${runId}/events`, { headers: auth() }),
      new AbortController(),
    );
    expect(whole.ended).toBe(true);
    expect(pieces.map((event) => event.data)).toEqual(whole.received.map((event) => event.data));
  });

  it("answers JSON 401 without a key and 404 for a run the key cannot see", async () => {
    const anonymous = await fetch(`${api.origin}/api/v1/runs/nope/events`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
    const unknown = await fetch(`${api.origin}/api/v1/runs/nope/events`, { headers: auth() });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("run_not_found");
  });
});
