import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveProvider } from "@/lib/db/provider-repository";
import { listRunEvents } from "@/lib/db/run-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import type { RunEvent } from "@/lib/runs/run-events";
import {
  apiKeyRequest,
  type PublishedApiWorkspace,
  seedPublishedApi,
  sseMessages,
} from "@/lib/services/testing/published-api";
import { POST as chatPost } from "../../../chat/completions/route";
import { askFlow } from "../../../testing/openai-api-fixture";
import { POST as runPost } from "./route";

/**
 * A published run sends (and records) its text in pieces only when its caller reads it as it is
 * written: a streamed run or a streamed chat completion. A blocking call and a non-streamed chat
 * completion get the same answer from a run with no text deltas, whose model call still streamed
 * on the wire (so the first-byte bound catches a hung provider).
 */

const ANSWER = "Once upon a time, a run told its tale.";

describe("text deltas of published runs follow how the caller reads", () => {
  let test: PublishedApiWorkspace;
  let fake: FakeOpenAIServer;
  let secret: string;

  beforeAll(async () => {
    test = await seedPublishedApi();
    fake = await startFakeOpenAIServer({ responder: () => ({ text: ANSWER }) });
    await saveProvider(test.workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-test" });
    await test.publish("Teller", askFlow);
    secret = await test.apiKey();
  });
  afterAll(async () => {
    await fake?.close();
    await test?.dispose();
  });
  beforeEach(() => fake.reset());

  const textDeltas = (events: RunEvent[]) =>
    events.flatMap((event) => (event.type === "node-delta" && event.kind === "text" ? [event.delta] : []));
  const run = (body: Record<string, unknown>) =>
    runPost(apiKeyRequest("/api/v1/workflows/teller/run", secret, body), {
      params: Promise.resolve({ slug: "teller" }),
    });
  const chat = (stream: boolean) =>
    chatPost(
      apiKeyRequest("/api/v1/chat/completions", secret, {
        model: "teller",
        stream,
        messages: [{ role: "user", content: "A tale, please." }],
      }),
      { params: Promise.resolve({}) },
    );

  it("blocking run: the answer, a run without text deltas, and a model call that streamed", async () => {
    const response = await run({ inputs: { question: "A tale, please." } });
    const answer = (await response.json()) as { runId: string; status: string; outputs: Record<string, unknown> };
    expect(answer).toMatchObject({ status: "succeeded", outputs: { answer: ANSWER } });
    const events = await listRunEvents(answer.runId, 0);
    expect(textDeltas(events)).toEqual([]);
    expect(events.find((event) => event.type === "node-end" && event.nodeId === "work")).toMatchObject({
      outputs: { text: ANSWER },
    });
    expect(fake.requests.map((request) => request.body.stream)).toEqual([true]);
  });

  it("streamed run: the text in pieces, live and recorded", async () => {
    const response = await run({ inputs: { question: "A tale, please." }, response_mode: "streaming" });
    const events = sseMessages(await response.text()).map((message) => message.data as unknown as RunEvent);
    expect(textDeltas(events).join("")).toBe(ANSWER);
    const runId = events[0]?.runId ?? "";
    expect(textDeltas(await listRunEvents(runId, 0)).join("")).toBe(ANSWER);
  });

  it("chat completion: deltas for a streamed one only, the same answer either way", async () => {
    const whole = (await (await chat(false)).json()) as {
      choices: { message: { content: string } }[];
      trellis: { runId: string };
    };
    expect(whole.choices[0]?.message.content).toBe(ANSWER);
    expect(textDeltas(await listRunEvents(whole.trellis.runId, 0))).toEqual([]);

    const chunks = sseMessages((await (await chat(true)).text()).replace("data: [DONE]", "")).map(
      (message) => message.data,
    );
    const content = chunks.map((chunk) => (chunk.choices as { delta: { content?: string } }[])[0]?.delta.content ?? "");
    expect(content.join("")).toBe(ANSWER);
    const runId = (chunks.at(-1)?.trellis as { runId: string } | undefined)?.runId ?? "";
    expect(textDeltas(await listRunEvents(runId, 0)).join("")).toBe(ANSWER);
    expect(fake.requests.map((request) => request.body.stream)).toEqual([true, true]);
  });
});
