import { describe, expect, it } from "vitest";
import { chatBinding, chatBindingAnswer, chatInputs } from "./chat-binding";

const start = (inputs: { name: string; type?: string }[], chat: Record<string, string> = {}) => ({ inputs, chat });

describe("chatBinding", () => {
  it("uses chat.queryInput when it is a declared text input, and chat.historyInput for history", () => {
    expect(
      chatBinding(
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
    expect(chatBinding(start([{ name: "topic" }, { name: "message" }]))).toMatchObject({
      queryInput: "message",
      historyInput: null,
    });
    expect(chatBinding(start([{ name: "topic" }, { name: "messages", type: "array" }]))).toMatchObject({
      queryInput: "topic",
      historyInput: "messages",
    });
  });

  it("has no binding without a text input, or with several unnamed ones", () => {
    expect(chatBinding(start([]))).toBeNull();
    expect(chatBinding(start([{ name: "count", type: "number" }]))).toBeNull();
    expect(chatBinding(start([{ name: "a" }, { name: "b" }]))).toBeNull();
    expect(chatBinding("not a start")).toBeNull();
  });

  it("sends to the undeclared chat inputs of a start that accepts extra inputs, unless a declared input is found", () => {
    const extra = (inputs: { name: string; type?: string }[], chat: Record<string, string> = {}) => ({
      inputs,
      chat,
      allowExtraInputs: true,
    });
    expect(chatBinding(extra([{ name: "count", type: "number" }]))).toEqual({
      queryInput: "query",
      historyInput: null,
      answerOutput: null,
    });
    expect(chatBinding(extra([], { queryInput: "ask", historyInput: "past" }))).toEqual({
      queryInput: "ask",
      historyInput: "past",
      answerOutput: null,
    });
    expect(chatBinding(extra([{ name: "topic" }]))).toMatchObject({ queryInput: "topic" });
    // A declared input of another type under the query's name is not replaced by an undeclared one.
    expect(chatBinding(extra([{ name: "query", type: "number" }]))).toBeNull();
  });
});

describe("chatInputs and chatBindingAnswer", () => {
  it("passes the earlier turns only when there is a history input", () => {
    const turns = [
      { role: "user" as const, content: "hi" },
      { role: "assistant" as const, content: "hello" },
    ];
    expect(chatInputs({ queryInput: "query", historyInput: null, answerOutput: null }, "next", turns)).toEqual({
      query: "next",
    });
    expect(chatInputs({ queryInput: "query", historyInput: "history", answerOutput: null }, "next", turns)).toEqual({
      query: "next",
      history: turns,
    });
  });

  it("reads the named answer output, else the first string output", () => {
    const binding = { queryInput: "q", historyInput: null, answerOutput: null };
    expect(chatBindingAnswer(binding, { count: 3, answer: "yes" })).toBe("yes");
    expect(chatBindingAnswer(binding, { count: 3 })).toBeNull();
    expect(chatBindingAnswer({ ...binding, answerOutput: "data" }, { data: { a: 1 }, answer: "x" })).toBe('{"a":1}');
    expect(chatBindingAnswer({ ...binding, answerOutput: "missing" }, { answer: "x" })).toBeNull();
  });
});
