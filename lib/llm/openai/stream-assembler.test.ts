import { describe, expect, it } from "vitest";
import type { ChatCompletionChunk } from "./response-schemas";
import { StreamAssembler } from "./stream-assembler";

type ToolDelta = NonNullable<
  NonNullable<NonNullable<ChatCompletionChunk["choices"]>[number]["delta"]>["tool_calls"]
>[number];
const toolChunk = (toolCalls: ToolDelta[], finishReason: string | null = null): ChatCompletionChunk => ({
  choices: [{ delta: { tool_calls: toolCalls }, finish_reason: finishReason }],
});

describe("StreamAssembler", () => {
  it("infers indexes when a server omits them (a new id starts a new call)", () => {
    const assembler = new StreamAssembler();
    assembler.push(toolChunk([{ id: "a", function: { name: "first", arguments: '{"x":' } }]));
    assembler.push(toolChunk([{ function: { arguments: "1}" } }]));
    assembler.push(toolChunk([{ id: "b", function: { name: "second", arguments: "{}" } }], "tool_calls"));
    expect(assembler.result().toolCalls).toEqual([
      { id: "a", name: "first", arguments: '{"x":1}' },
      { id: "b", name: "second", arguments: "{}" },
    ]);
    expect(assembler.sawFinishReason).toBe(true);
  });

  it("keeps the first name when a server repeats it, and makes up ids that never came", () => {
    const assembler = new StreamAssembler();
    const parts = [
      ...assembler.push(toolChunk([{ index: 0, function: { name: "search", arguments: '{"q":' } }])),
      ...assembler.push(toolChunk([{ index: 0, function: { name: "search", arguments: '"cats"}' } }])),
    ];
    expect(parts).toEqual([
      { type: "tool-call-delta", index: 0, name: "search", argumentsDelta: '{"q":' },
      { type: "tool-call-delta", index: 0, argumentsDelta: '"cats"}' },
    ]);
    expect(assembler.result().toolCalls).toEqual([{ id: "call_0", name: "search", arguments: '{"q":"cats"}' }]);
  });

  it("orders calls by index even when they arrive out of order", () => {
    const assembler = new StreamAssembler();
    assembler.push(toolChunk([{ index: 1, id: "second", function: { name: "b", arguments: "{}" } }]));
    assembler.push(toolChunk([{ index: 0, id: "first", function: { name: "a", arguments: "{}" } }]));
    expect(assembler.result().toolCalls.map((call) => call.id)).toEqual(["first", "second"]);
  });

  it("ignores usage-only chunks with empty choices but keeps their usage", () => {
    const assembler = new StreamAssembler();
    assembler.push({ choices: [{ delta: { content: "hi" }, finish_reason: "stop" }] });
    expect(assembler.push({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } })).toEqual([]);
    expect(assembler.result()).toMatchObject({
      text: "hi",
      finishReason: "stop",
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
  });
});
