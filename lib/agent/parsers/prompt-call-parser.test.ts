import { describe, expect, it } from "vitest";
import { parsePromptCallOutput } from "./prompt-call-parser";

describe("parsePromptCallOutput", () => {
  it("parses a direct answer", () => {
    expect(parsePromptCallOutput("0: It is sunny.")).toEqual({
      type: "answer",
      text: "It is sunny.",
      parseFailed: false,
    });
  });

  it("parses a tool call with a half-width or full-width colon", () => {
    const expected = { type: "call", toolId: "get_current_weather", arguments: { city: "杭州" } };
    expect(parsePromptCallOutput('1: {"toolId":"get_current_weather","arguments":{"city":"杭州"}}')).toMatchObject(
      expected,
    );
    expect(parsePromptCallOutput('1：{"toolId":"get_current_weather","arguments":{"city":"杭州"}}')).toMatchObject(
      expected,
    );
    expect(parsePromptCallOutput('ANSWER: 1: {"toolId":"current_time"}')).toMatchObject({
      type: "call",
      toolId: "current_time",
      arguments: {},
    });
  });

  it("reports a broken call instead of guessing", () => {
    expect(parsePromptCallOutput("1: get the weather please")).toMatchObject({ type: "invalid_call" });
    expect(parsePromptCallOutput('1: {"arguments": {}}')).toMatchObject({ type: "invalid_call" });
  });

  it("keeps text without a prefix as an answer flagged parse_failed", () => {
    expect(parsePromptCallOutput("Sunny today.")).toEqual({ type: "answer", text: "Sunny today.", parseFailed: true });
  });
});
