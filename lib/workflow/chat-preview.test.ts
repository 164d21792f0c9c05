import { describe, expect, it } from "vitest";
import { chatPreviewAnswer, chatPreviewBinding, chatPreviewInputs } from "./chat-preview";

const start = (inputs: { name: string; type?: string }[], chat: Record<string, string> = {}) => ({ inputs, chat });

describe("chatPreviewBinding", () => {
  it("uses chat.queryInput when it is a declared text input, and chat.historyInput for history", () => {
    expect(
      chatPreviewBinding(
        start(
          [
            { name: "ask", type: "string" },
            { name: "past", type: "array" },
          ],
          { queryInput: "ask", historyInput: "past", answerOutput: "reply" },
        ),
      ),
    ).toEqual({ queryInput: "ask", historyInput: "past", answerOutput: "reply" });
  });

  it("falls back to a usual name, then to the only text input; an array named history or messages is the history", () => {
    expect(chatPreviewBinding(start([{ name: "topic" }, { name: "message" }]))).toMatchObject({
      queryInput: "message",
      historyInput: null,
    });
    expect(chatPreviewBinding(start([{ name: "topic" }, { name: "messages", type: "array" }]))).toMatchObject({
      queryInput: "topic",
      historyInput: "messages",
    });
  });

  it("has no binding without a text input, or with several unnamed ones", () => {
    expect(chatPreviewBinding(start([]))).toBeNull();
    expect(chatPreviewBinding(start([{ name: "count", type: "number" }]))).toBeNull();
    expect(chatPreviewBinding(start([{ name: "a" }, { name: "b" }]))).toBeNull();
    expect(chatPreviewBinding("not a start")).toBeNull();
  });
});

describe("chatPreviewInputs and chatPreviewAnswer", () => {
  it("passes the earlier turns only when there is a history input", () => {
    const turns = [
      { role: "user" as const, content: "hi" },
      { role: "assistant" as const, content: "hello" },
    ];
    expect(chatPreviewInputs({ queryInput: "query", historyInput: null, answerOutput: null }, "next", turns)).toEqual({
      query: "next",
    });
    expect(
      chatPreviewInputs({ queryInput: "query", historyInput: "history", answerOutput: null }, "next", turns),
    ).toEqual({ query: "next", history: turns });
  });

  it("reads the named answer output, else the first string output", () => {
    const binding = { queryInput: "q", historyInput: null, answerOutput: null };
    expect(chatPreviewAnswer(binding, { count: 3, answer: "yes" })).toBe("yes");
    expect(chatPreviewAnswer(binding, { count: 3 })).toBeNull();
    expect(chatPreviewAnswer({ ...binding, answerOutput: "data" }, { data: { a: 1 }, answer: "x" })).toBe('{"a":1}');
    expect(chatPreviewAnswer({ ...binding, answerOutput: "missing" }, { answer: "x" })).toBeNull();
  });
});
