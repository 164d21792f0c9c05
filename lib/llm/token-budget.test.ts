import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextOverflowError } from "./errors";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-server";
import type { ChatMessage, ModelProfile } from "./language-model";
import { defaultModelProfile } from "./model-profiles";
import { createOpenAICompatibleModel } from "./openai/openai-language-model";
import { fitToContextWindow } from "./token-budget";
import { countMessagesTokens, countToolTokens } from "./token-count";

const profile = (contextWindow: number, maxOutputTokens = 100): ModelProfile => ({
  ...defaultModelProfile,
  contextWindow,
  maxOutputTokens,
});
const noMargin = { safetyMarginTokens: 0, minimumCompletionTokens: 50 };
const filler = (words: number) => Array.from({ length: words }, (_, index) => `word${index}`).join(" ");

/** A conversation with two earlier turns, then an agent step (tool call + result) on the current task. */
function history(): ChatMessage[] {
  return [
    { role: "system", content: "You are a careful assistant." },
    { role: "user", content: `Old question one. ${filler(200)}` },
    { role: "assistant", content: `Old answer one. ${filler(200)}` },
    { role: "user", content: `Old question two. ${filler(200)}` },
    { role: "assistant", content: "", toolCalls: [{ id: "call_old", name: "search", arguments: '{"q":"old"}' }] },
    { role: "tool", toolCallId: "call_old", content: filler(200) },
    { role: "assistant", content: `Old answer two. ${filler(50)}` },
    { role: "user", content: "Current task: summarise the weather." },
    { role: "assistant", content: "", toolCalls: [{ id: "call_now", name: "weather", arguments: '{"city":"Oslo"}' }] },
    { role: "tool", toolCallId: "call_now", content: "Rain, 7°C" },
  ];
}

function assertToolResultsFollowTheirCalls(messages: ChatMessage[]): void {
  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    const owner = messages
      .slice(0, index)
      .reverse()
      .find((candidate) => candidate.role === "assistant");
    expect(owner?.role === "assistant" && owner.toolCalls?.some((call) => call.id === message.toolCallId)).toBe(true);
  });
}

describe("fitToContextWindow", () => {
  it("changes nothing when everything fits", () => {
    const messages = history();
    const fitted = fitToContextWindow({ messages, maxTokens: 100 }, profile(100_000), noMargin);
    expect(fitted.messages).toBe(messages);
    expect(fitted.maxTokens).toBe(100);
    expect(fitted.budget).toBeUndefined();
    expect(fitted.messageTokens).toBe(countMessagesTokens(messages));
  });

  it("lowers max_tokens to the room left in the window", () => {
    const messages = history();
    const tools = [{ name: "weather", description: "Weather", parameters: { type: "object" } }];
    const prompt = countMessagesTokens(messages) + countToolTokens(tools);
    const fitted = fitToContextWindow({ messages, tools, maxTokens: 500 }, profile(prompt + 120), noMargin);
    expect(fitted.maxTokens).toBe(120);
    expect(fitted.budget).toEqual({ maxTokensLoweredTo: 120 });
    expect(fitted.messages).toHaveLength(messages.length);
  });

  it("uses the profile's default cap when the request sets none", () => {
    const fitted = fitToContextWindow({ messages: history() }, profile(100_000, 777), noMargin);
    expect(fitted.maxTokens).toBe(777);
  });

  it("drops the oldest turns first, keeping system prompts, the current task and the latest step together", () => {
    const messages = history();
    const pinned = [messages[0], messages[7], messages[8], messages[9]];
    const window = countMessagesTokens(pinned) + 150;
    const fitted = fitToContextWindow({ messages, maxTokens: 100 }, profile(window), noMargin);
    for (const message of pinned) expect(fitted.messages).toContain(message);
    expect(fitted.messages[0]).toBe(messages[0]);
    expect(fitted.messages.slice(-3)).toEqual(messages.slice(-3));
    expect(fitted.budget?.droppedMessages).toBe(messages.length - fitted.messages.length);
    expect(fitted.budget?.droppedMessages).toBeGreaterThan(0);
    assertToolResultsFollowTheirCalls(fitted.messages);
    // The oldest unit goes first: whatever is kept of the older turns is a suffix of them.
    const keptOlder = fitted.messages.slice(1, -3);
    expect(messages.slice(1, 7).slice(6 - keptOlder.length)).toEqual(keptOlder);
    expect(fitted.messageTokens).toBe(countMessagesTokens(fitted.messages));
    expect(fitted.messageTokens + fitted.maxTokens).toBeLessThanOrEqual(window);
  });

  it("drops an assistant tool_calls message together with its results", () => {
    const messages = history();
    // Room for everything except the first two old turns: the old tool group must go whole or stay whole.
    const withoutFirstTurns = [messages[0], ...messages.slice(4)];
    const window = countMessagesTokens(withoutFirstTurns) + 60;
    const fitted = fitToContextWindow({ messages, maxTokens: 50 }, profile(window), noMargin);
    const hasCall = fitted.messages.includes(messages[4]);
    const hasResult = fitted.messages.includes(messages[5]);
    expect(hasCall).toBe(hasResult);
    assertToolResultsFollowTheirCalls(fitted.messages);
  });

  it("never leaves a tool result without its call, even when dropping the call alone would fit", () => {
    const call: ChatMessage = {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "search", arguments: "{}" }],
    };
    const messages: ChatMessage[] = [
      { role: "system", content: "sys" },
      call,
      { role: "tool", toolCallId: "c1", content: filler(100) },
      { role: "user", content: "Current task." },
    ];
    // Exactly enough room once the (small) call message is gone.
    const window = countMessagesTokens(messages) - countMessagesTokens([call]) + 3 + 50;
    const fitted = fitToContextWindow({ messages, maxTokens: 50 }, profile(window), noMargin);
    expect(fitted.messages).toEqual([messages[0], messages[3]]);
    expect(fitted.budget?.droppedMessages).toBe(2);
    assertToolResultsFollowTheirCalls(fitted.messages);
  });

  it("throws context_overflow when even the minimal history does not fit", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: filler(300) },
      { role: "user", content: "old" },
      { role: "user", content: filler(300) },
    ];
    expect(() => fitToContextWindow({ messages, maxTokens: 100 }, profile(400), noMargin)).toThrow(
      ContextOverflowError,
    );
  });

  it("keeps a safety margin by default", () => {
    const messages = history();
    const prompt = countMessagesTokens(messages);
    const fitted = fitToContextWindow({ messages, maxTokens: 5000 }, profile(prompt + 1000));
    expect(fitted.maxTokens).toBeLessThan(1000);
  });
});

describe("budget in the adapter", () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer();
  });
  afterAll(() => server.close());

  it("sends the trimmed history and the lowered max_tokens, and reports both", async () => {
    const messages = history();
    const pinned = [messages[0], ...messages.slice(7)];
    const contextWindow = countMessagesTokens(pinned) + 300;
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      model: "tiny-local-model",
      profile: { contextWindow, maxOutputTokens: 1000 },
      budget: noMargin,
    });
    server.script({ text: "It rains." });
    const response = await model.generate({ messages });
    const sent = server.requests.at(-1)!.body;
    expect(sent.messages.length).toBeLessThan(messages.length);
    expect(sent.messages[0]).toEqual({ role: "system", content: "You are a careful assistant." });
    expect(sent.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_now", content: "Rain, 7°C" });
    expect(sent.max_tokens).toBeLessThan(1000);
    expect(response.budget).toEqual({
      droppedMessages: messages.length - sent.messages.length,
      maxTokensLoweredTo: sent.max_tokens,
    });
  });

  it("fails with context_overflow before sending anything", async () => {
    const before = server.requests.length;
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      model: "tiny",
      profile: { contextWindow: 100 },
      budget: noMargin,
    });
    await expect(model.generate({ messages: [{ role: "user", content: filler(200) }] })).rejects.toMatchObject({
      code: "context_overflow",
      modelId: "tiny",
    });
    expect(server.requests.length).toBe(before);
  });
});
