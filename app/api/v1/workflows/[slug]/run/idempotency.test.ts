import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredIdempotencyKeys } from "@/lib/db/idempotency-repository";
import { testProviders } from "@/lib/db/testing/test-database";
import { createServiceRoot, installServiceRoot } from "@/lib/services/root";
import { apiKeyRequest, type PublishedApiWorkspace, seedPublishedApi } from "@/lib/services/testing/published-api";
import { POST as chatCompletions } from "../../../chat/completions/route";
import { POST } from "./route";

function call(body: unknown, key: string, idempotencyKey?: string): Promise<Response> {
  const headers: Record<string, string> = idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey };
  return POST(apiKeyRequest("/api/v1/workflows/greeter/run", key, body, headers), {
    params: Promise.resolve({ slug: "greeter" }),
  });
}

function chat(body: unknown, key: string, idempotencyKey: string): Promise<Response> {
  const request = apiKeyRequest("/api/v1/chat/completions", key, body, { "idempotency-key": idempotencyKey });
  return chatCompletions(request, { params: Promise.resolve({}) });
}

/** The `data:` objects of an SSE answer. */
async function sseEvents(response: Response): Promise<{ seq: number; type: string; runId: string }[]> {
  return (await response.text())
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)));
}

describe.each(testProviders())("Idempotency-Key on run-starting calls (%s)", (provider) => {
  let test: PublishedApiWorkspace;
  let workflowId: string;
  let secret: string;
  let otherSecret: string;
  let previousUrl: string | undefined;
  const runCount = () => test.db.run.count({ where: { workflowId } });

  beforeAll(async () => {
    test = await seedPublishedApi(provider);
    // RunService picks its recorder's SQL dialect from DATABASE_URL when it is built: build this
    // suite's root with the suite's database named there.
    previousUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = test.config.url;
    installServiceRoot(createServiceRoot());
    ({ workflowId } = await test.publish("Greeter"));
    secret = await test.apiKey();
    otherSecret = await test.apiKey();
  });
  afterAll(async () => {
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    installServiceRoot(createServiceRoot());
    await test?.dispose();
  });

  it("the same key and body answers the same run and result, without a second run", async () => {
    const before = await runCount();
    const first = await call({ inputs: { name: "Ada" } }, secret, "key-same");
    const firstBody = await first.json();
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Key order in the body does not make it another request.
    const again = await call({ inputs: { name: "Ada" } }, secret, "key-same");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(firstBody).toMatchObject({ status: "succeeded", outputs: { greeting: "Hello, Ada!" }, version: 1 });
    expect(await runCount()).toBe(before + 1);
  });

  it("the same key with a different body is refused with 422 idempotency_key_reused", async () => {
    await (await call({ inputs: { name: "Ada" } }, secret, "key-reused")).json();
    const before = await runCount();
    const response = await call({ inputs: { name: "Bob" } }, secret, "key-reused");
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ code: "idempotency_key_reused", field: "Idempotency-Key" });
    expect(await runCount()).toBe(before);
  });

  it("20 concurrent identical requests start exactly one run and all answer it", async () => {
    const before = await runCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call({ inputs: { name: "Crowd" } }, secret, "key-concurrent")),
    );
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(new Set(bodies.map((body) => body.runId)).size).toBe(1);
    expect(bodies.every((body) => body.outputs.greeting === "Hello, Crowd!")).toBe(true);
    expect(await runCount()).toBe(before + 1);
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
  });

  it("a streaming repeat re-attaches to the first run's events from the start", async () => {
    const body = { inputs: { name: "Stream" }, response_mode: "streaming" };
    const first = await sseEvents(await call(body, secret, "key-stream"));
    const before = await runCount();
    const again = await call(body, secret, "key-stream");
    expect(again.headers.get("content-type")).toContain("text/event-stream");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const replayed = await sseEvents(again);
    expect(replayed.map((event) => [event.seq, event.type, event.runId])).toEqual(
      first.map((event) => [event.seq, event.type, event.runId]),
    );
    expect(replayed.at(-1)?.type).toBe("run-end");
    expect(await runCount()).toBe(before);
  });

  it("keys are scoped per API key", async () => {
    const before = await runCount();
    const mine = await (await call({ inputs: { name: "Ada" } }, secret, "key-scoped")).json();
    const theirs = await (await call({ inputs: { name: "Ada" } }, otherSecret, "key-scoped")).json();
    expect(theirs.runId).not.toBe(mine.runId);
    expect(await runCount()).toBe(before + 2);
  });

  it("a refused start releases the key, so a corrected request with it runs", async () => {
    const refused = await call({ inputs: {} }, secret, "key-refused");
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.code).toBe("invalid_input");
    const corrected = await call({ inputs: { name: "Fixed" } }, secret, "key-refused");
    expect(corrected.status).toBe(200);
    expect((await corrected.json()).outputs.greeting).toBe("Hello, Fixed!");
  });

  it("an expired key is free again, and expired rows are swept", async () => {
    const first = await (await call({ inputs: { name: "Old" } }, secret, "key-expired")).json();
    await test.db.idempotencyKey.updateMany({
      where: { key: "key-expired" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const second = await (await call({ inputs: { name: "Old" } }, secret, "key-expired")).json();
    expect(second.runId).not.toBe(first.runId);
    await test.db.idempotencyKey.updateMany({
      where: { key: "key-expired" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await sweepExpiredIdempotencyKeys(new Date())).toBeGreaterThanOrEqual(1);
    expect(await test.db.idempotencyKey.count({ where: { key: "key-expired" } })).toBe(0);
    // Fresh rows expire 24 h after they were made.
    const fresh = await test.db.idempotencyKey.findFirstOrThrow({ where: { key: "key-same" } });
    expect(fresh.expiresAt.getTime() - fresh.createdAt.getTime()).toBeGreaterThan(23.9 * 3600 * 1000);
  });

  it("refuses an empty or oversized key with 400 invalid_idempotency_key", async () => {
    for (const bad of [" ", "x".repeat(256)]) {
      const response = await call({ inputs: { name: "Ada" } }, secret, bad);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe("invalid_idempotency_key");
    }
  });

  it("chat completions: the same key and body answer the same completion; another body is refused", async () => {
    const body = { model: "greeter", messages: [{ role: "user", content: "Chat" }] };
    const before = await runCount();
    const first = await (await chat(body, secret, "key-chat")).json();
    const replay = await chat(body, secret, "key-chat");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await replay.json();
    expect(again.id).toBe(first.id);
    expect(again.choices[0].message.content).toBe("Hello, Chat!");
    expect(await runCount()).toBe(before + 1);
    const reused = await chat({ ...body, messages: [{ role: "user", content: "Other" }] }, secret, "key-chat");
    expect(reused.status).toBe(422);
    expect((await reused.json()).error).toMatchObject({
      code: "idempotency_key_reused",
      type: "invalid_request_error",
    });
  });
});
