// The official SDK as the client: the layer check allows `openai` in app/api/v1 test files only.
import OpenAI, { AuthenticationError, NotFoundError, UnprocessableEntityError } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import type { TestDatabase } from "@/lib/db/testing/test-database";
import type { FakeOpenAIServer } from "@/lib/llm/fake-server";
import { fakeScenarios } from "@/lib/llm/fake-server/scenarios";
import { helperAnswer, type OpenAiApiFixture, startOpenAiApiFixture } from "../../testing/openai-api-fixture";

/** Published workflows as an OpenAI-compatible API, exercised by the official `openai` SDK over real HTTP. */
describe("OpenAI-compatible API through the official SDK", () => {
  let fixture: OpenAiApiFixture;
  let test: TestDatabase;
  let fake: FakeOpenAIServer;
  let client: OpenAI;
  let baseURL: string;
  let workspaceId: string;
  let workflowIds: Record<string, string>;

  beforeAll(async () => {
    fixture = await startOpenAiApiFixture();
    ({ test, fake, baseURL, workspaceId, workflowIds } = fixture);
    client = new OpenAI({ apiKey: fixture.secret, baseURL, maxRetries: 0 });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await fixture?.close();
  });

  it("answers a non-streaming completion with the workflow's answer, usage and the run id", async () => {
    fake.script(fakeScenarios.answer("Forty-two.", 30, 4));
    const completion = await client.chat.completions.create({
      model: "ask",
      messages: [{ role: "user", content: "Meaning of life?" }],
    });
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "ask",
      choices: [{ index: 0, message: { role: "assistant", content: "Forty-two." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
    });
    const trellis = (completion as unknown as { trellis: { runId: string; status: string } }).trellis;
    expect(trellis.status).toBe("succeeded");
    expect(completion.id).toBe(`chatcmpl-${trellis.runId}`);
    // The last user message reached the model through the start input.
    const sent = fake.requests[0]?.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)?.content).toBe("Meaning of life?");
  });

  it("streams the answer node's deltas as chunks: role first, content, finish_reason, usage, [DONE]", async () => {
    fake.script(fakeScenarios.answer("The sky is blue over Athens today.", 12, 8));
    const stream = await client.chat.completions.create({
      model: "ask",
      messages: [{ role: "user", content: "Sky?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const contents = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""));
    expect(contents.join("")).toBe("The sky is blue over Athens today.");
    // Streamed piece by piece from the LLM node, not sent as one block at the end.
    expect(contents.filter((content) => content !== "").length).toBeGreaterThan(2);
    const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    expect((finish as unknown as { trellis: { runId: string } }).trellis.runId).toBeTruthy();
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 8 } });
  });

  it("works with the SDK's stream helper (content events, the assembled completion) and withResponse()", async () => {
    fake.script(fakeScenarios.answer(helperAnswer.text, helperAnswer.promptTokens, helperAnswer.completionTokens));
    const helper = client.chat.completions.stream({
      model: "ask",
      messages: [{ role: "user", content: "Helper?" }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    helper.on("content", (delta) => deltas.push(delta));
    const final = await helper.finalChatCompletion();
    expect(deltas.join("")).toBe(helperAnswer.text);
    expect(deltas.length).toBeGreaterThan(2);
    expect(final).toMatchObject(helperAnswer.completion);
    const { data, response } = await client.chat.completions
      .create({ model: "echo", messages: [{ role: "user", content: "raw?" }] })
      .withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(data.choices[0]?.message.content).toBe("v1 Q=raw? H=[]");
  });

  it("streams a non-streaming node's answer as one chunk and ends the SSE with data: [DONE]", async () => {
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "echo", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const data = (await response.text())
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => block.slice(6));
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: "assistant", content: "" },
      { content: "v1 Q=hi H=[]" },
      {},
    ]);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
  });

  it("maps the earlier messages to the history input and the last user message to the query input", async () => {
    const completion = await client.chat.completions.create({
      model: "echo",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "First?" },
        { role: "assistant", content: "One." },
        {
          role: "user",
          content: [
            { type: "text", text: "Sec" },
            { type: "text", text: "ond?" },
          ],
        },
      ],
    });
    const runId = (completion as unknown as { trellis: { runId: string } }).trellis.runId;
    const run = await test.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.inputs).toEqual({
      question: "Second?",
      history: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "First?" },
        { role: "assistant", content: "One." },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain("Q=Second?");
  });

  it("pins a published version with slug@version; unknown models and versions are NotFoundError", async () => {
    const ask = (modelName: string) =>
      client.chat.completions.create({ model: modelName, messages: [{ role: "user", content: "x" }] });
    expect((await ask("pinned")).choices[0]?.message.content).toMatch(/^v2 /);
    expect((await ask("pinned@1")).choices[0]?.message.content).toMatch(/^v1 /);
    expect((await ask("pinned@2")).choices[0]?.message.content).toMatch(/^v2 /);
    for (const missing of ["nowhere", "pinned@3", "pinned@latest"]) {
      const error = await ask(missing).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).error).toMatchObject({ type: "invalid_request_error", param: "model" });
      expect((error as NotFoundError).code).toMatch(/^workflow_(version_)?not_found$/);
    }
  });

  it("lists the published workflows the key may call, honouring a key's workflow limit", async () => {
    const page = await client.models.list();
    expect(page.data.map((item) => item.id)).toEqual(["ask", "counter", "echo", "pinned", "topics", "unmapped"]);
    expect(page.data[0]).toMatchObject({ object: "model", owned_by: "trellis" });
    expect(page.data[0]?.created).toBeGreaterThan(1_600_000_000);
    const limited = await createApiKey(workspaceId, {
      name: "echo-only",
      scopes: ["run"],
      workflowId: workflowIds.Echo,
    });
    const limitedClient = new OpenAI({ apiKey: limited.secret, baseURL, maxRetries: 0 });
    expect((await limitedClient.models.list()).data.map((item) => item.id)).toEqual(["echo"]);
    const refused = await limitedClient.chat.completions
      .create({ model: "ask", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(NotFoundError);
  });

  it("retrieves one model (slug or slug@version) as models.retrieve reads it; others are NotFoundError", async () => {
    expect(await client.models.retrieve("echo")).toMatchObject({ id: "echo", object: "model", owned_by: "trellis" });
    const pinned = await client.models.retrieve("pinned@1");
    expect(pinned.id).toBe("pinned@1");
    expect(pinned.created).toBeGreaterThan(1_600_000_000);
    const limited = await createApiKey(workspaceId, {
      name: "echo-only-2",
      scopes: ["run"],
      workflowId: workflowIds.Echo,
    });
    const limitedClient = new OpenAI({ apiKey: limited.secret, baseURL, maxRetries: 0 });
    expect((await limitedClient.models.retrieve("echo")).id).toBe("echo");
    const refusals: Array<[OpenAI, string, string]> = [
      [client, "nowhere", "workflow_not_found"],
      [client, "pinned@3", "workflow_version_not_found"],
      [client, "pinned@latest", "workflow_version_not_found"],
      [limitedClient, "ask", "workflow_not_found"],
    ];
    for (const [caller, name, code] of refusals) {
      const error = await caller.models.retrieve(name).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).error, name).toMatchObject({
        type: "invalid_request_error",
        param: "model",
        code,
      });
    }
  });

  it("refuses a bad key with AuthenticationError in OpenAI's error shape", async () => {
    const stranger = new OpenAI({ apiKey: "trl_nope", baseURL, maxRetries: 0 });
    const error = await stranger.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).error).toMatchObject({
      type: "authentication_error",
      code: "invalid_api_key",
    });
    // Re-shaped from the route's own error answer: its headers are taken over, not repeated.
    expect((error as AuthenticationError).headers.get("cache-control")).toBe("no-transform");
  });

  it("answers a failed run with a 422 workflow_error carrying the run's real code and id", async () => {
    fake.script(...fakeScenarios.failTimes(20, 500, 1));
    const error = await client.chat.completions
      .create({ model: "ask", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const apiError = error as UnprocessableEntityError;
    expect(apiError.type).toBe("workflow_error");
    const runs = await test.db.run.findMany({ orderBy: { startedAt: "desc" }, take: 1 });
    expect(runs[0]?.status).toBe("failed");
    expect(apiError.code).toBe(runs[0]?.errorCode);
    expect(apiError.headers.get("x-should-retry")).toBe("false");
  });

  it("answers a partial run cut by the token cap with finish_reason length and trellis status and error", async () => {
    fake.script({ text: "The beginning of a long", finishReason: "length" });
    const completion = await client.chat.completions.create({
      model: "ask",
      messages: [{ role: "user", content: "Tell me everything." }],
    });
    expect(completion.choices[0]).toMatchObject({
      message: { content: "The beginning of a long" },
      finish_reason: "length",
    });
    expect((completion as unknown as { trellis: unknown }).trellis).toMatchObject({
      status: "partial",
      error: { code: "max_tokens_reached" },
    });
    fake.script({ text: "Cut here", finishReason: "length" });
    const stream = await client.chat.completions.create({
      model: "ask",
      messages: [{ role: "user", content: "Again." }],
      stream: true,
    });
    const reasons: (string | null | undefined)[] = [];
    for await (const chunk of stream) reasons.push(chunk.choices[0]?.finish_reason);
    expect(reasons.filter(Boolean)).toEqual(["length"]);
  });

  it("names a bad body field and a missing user message in OpenAI's error shape", async () => {
    const noUser = await client.chat.completions
      .create({ model: "ask", messages: [{ role: "system", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(noUser).toMatchObject({ status: 400, code: "invalid_request", param: "messages" });
    const badRole = await client.chat.completions
      .create({ model: "ask", messages: [{ role: "robot" as "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(badRole).toMatchObject({ status: 400, code: "invalid_request", param: "messages.0.role" });
    const image = await client.chat.completions
      .create({
        model: "ask",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            ],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(image).toMatchObject({ status: 400, code: "invalid_request", param: "messages.0.content" });
    expect((image as Error).message).toContain("image, audio and file parts cannot feed");
    const notChat = await client.chat.completions
      .create({ model: "counter", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(notChat).toMatchObject({ status: 400, code: "invalid_request", param: "model" });
    expect((notChat as Error).message).toContain('"counter" cannot take chat messages');
    expect((notChat as Error).message).toContain("count (number)");
    const unfilled = await client.chat.completions
      .create({ model: "topics", messages: [{ role: "user", content: "tides" }] })
      .catch((caught: unknown) => caught);
    expect(unfilled).toBeInstanceOf(UnprocessableEntityError);
    expect(unfilled).toMatchObject({ code: "invalid_input", type: "invalid_request_error" });
    const issues = (unfilled as UnprocessableEntityError).error as { issues: { field: string }[] };
    expect(issues.issues.map((issue) => issue.field)).toEqual(["count"]);
  });

  it("feeds a start without chat settings by its inputs' names, as the editor's chat preview does", async () => {
    const completion = await client.chat.completions.create({
      model: "unmapped",
      messages: [
        { role: "user", content: "First?" },
        { role: "assistant", content: "One." },
        { role: "user", content: "Second?" },
      ],
    });
    const runId = (completion as unknown as { trellis: { runId: string } }).trellis.runId;
    const run = await test.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.inputs).toEqual({
      question: "Second?",
      history: [
        { role: "user", content: "First?" },
        { role: "assistant", content: "One." },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain("unmapped Q=Second?");
  });
});
