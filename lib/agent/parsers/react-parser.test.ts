import { describe, expect, it } from "vitest";
import { cutAtObservation, parseReactOutput } from "./react-parser";

describe("parseReactOutput", () => {
  it("parses an English action with JSON input", () => {
    const parsed = parseReactOutput(
      'Thought: I need the weather.\nAction: get_current_weather\nAction Input: {"city": "Athens"}',
    );
    expect(parsed).toEqual({
      type: "action",
      thought: "I need the weather.",
      action: "get_current_weather",
      input: { city: "Athens" },
      rawInput: '{"city": "Athens"}',
    });
  });

  it("parses Chinese markers with full-width colons", () => {
    const parsed = parseReactOutput(
      '思考：我需要查询北京的天气。\n行动：get_current_weather\n行动输入：{"city": "北京"}',
    );
    expect(parsed).toMatchObject({
      type: "action",
      thought: "我需要查询北京的天气。",
      action: "get_current_weather",
      input: { city: "北京" },
    });
    expect(parseReactOutput("思考：我知道了。\n最终答案：北京今天晴。")).toMatchObject({
      type: "final",
      answer: "北京今天晴。",
      parseFailed: false,
    });
  });

  it("parses a final answer, mid-line too", () => {
    expect(parseReactOutput("Thought: done\nFinal Answer: It rained.")).toMatchObject({
      type: "final",
      answer: "It rained.",
      thought: "done",
    });
    expect(parseReactOutput("I know it now. Final Answer: 42")).toMatchObject({ type: "final", answer: "42" });
  });

  it("reads a JSON blob in a code fence", () => {
    const text =
      'Thought: weather first\nAction:\n```json\n{"action": "get_current_weather", "action_input": {"city": "Paris"}}\n```';
    expect(parseReactOutput(text)).toMatchObject({
      type: "action",
      action: "get_current_weather",
      input: { city: "Paris" },
    });
    const final = '```\n{"action": "Final Answer", "action_input": "Sunny"}\n```';
    expect(parseReactOutput(final)).toMatchObject({ type: "final", answer: "Sunny", parseFailed: false });
  });

  it("strips <think> blocks", () => {
    const parsed = parseReactOutput(
      '<think>Maybe Final Answer: wrong</think>\nThought: check\nAction: calculator\nAction Input: {"expression": "2+2"}',
    );
    expect(parsed).toMatchObject({ type: "action", action: "calculator", input: { expression: "2+2" } });
  });

  it("falls back to {input: raw} when the action input is not JSON", () => {
    expect(parseReactOutput("Action: search\nAction Input: weather in Athens")).toMatchObject({
      action: "search",
      input: { input: "weather in Athens" },
    });
  });

  it("accepts name({...}) actions", () => {
    expect(parseReactOutput('Action: search_stock_price({"symbol": "MSFT"})')).toMatchObject({
      action: "search_stock_price",
      input: { symbol: "MSFT" },
    });
  });

  it("ignores an invented Observation and anything after it", () => {
    const text =
      'Action: get_current_weather\nAction Input: {"city":"Athens"}\nObservation: sunny\nFinal Answer: sunny';
    expect(parseReactOutput(text)).toMatchObject({ type: "action", action: "get_current_weather" });
    expect(cutAtObservation("a\nObservation：b")).toBe("a");
    expect(cutAtObservation("a\n观察：b")).toBe("a");
  });

  it("flags text with no markers as parse_failed but keeps it", () => {
    expect(parseReactOutput("Just some prose.")).toEqual({
      type: "final",
      thought: "",
      answer: "Just some prose.",
      parseFailed: true,
    });
  });

  it("takes the first decision when both appear", () => {
    expect(parseReactOutput("Final Answer: A\nAction: x\nAction Input: {}")).toMatchObject({
      type: "final",
      answer: "A",
    });
  });
});
