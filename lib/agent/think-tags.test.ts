import { describe, expect, it } from "vitest";
import type { RoutedDelta } from "./delta-router";
import { splitThinkTags, thinkTagRouter } from "./think-tags";

describe("splitThinkTags", () => {
  it("separates a leading think block from the answer", () => {
    expect(splitThinkTags("<think>\nThe user greets me.\n</think>\n\nHello!")).toEqual({
      reasoning: "The user greets me.",
      text: "Hello!",
    });
    expect(splitThinkTags("  <think>a</think>b")).toEqual({ reasoning: "a", text: "b" });
  });

  it("takes a block the prompt opened (only `</think>`, on a line of its own)", () => {
    expect(splitThinkTags("Let me think.\n</think>\n\nParis.")).toEqual({ reasoning: "Let me think.", text: "Paris." });
    expect(splitThinkTags("Short.\n  </think>  \nAnswer")).toEqual({ reasoning: "Short.", text: "Answer" });
  });

  it("leaves a `</think>` inside a sentence in the answer (an answer about tags)", () => {
    const reply = "The closing tag is </think>. Models write it after reasoning.";
    expect(splitThinkTags(reply)).toEqual({ text: reply, reasoning: "" });
  });

  it("counts a block never closed as reasoning only (a reply cut while reasoning)", () => {
    expect(splitThinkTags("<think>Still going")).toEqual({ reasoning: "Still going", text: "" });
  });

  it("leaves replies without a leading block alone, think tags later in the answer included", () => {
    expect(splitThinkTags("Plain answer")).toEqual({ text: "Plain answer", reasoning: "" });
    expect(splitThinkTags("Use <think> and </think> tags")).toEqual({
      text: "Use <think> and </think> tags",
      reasoning: "",
    });
    expect(splitThinkTags("")).toEqual({ text: "", reasoning: "" });
  });
});

/** Feeds the deltas one by one and joins what came out per kind. */
function route(deltas: string[]): { thought: string; text: string; pieces: RoutedDelta[] } {
  const router = thinkTagRouter();
  const pieces = [...deltas.flatMap((delta) => router.push(delta)), ...router.flush()];
  const join = (kind: RoutedDelta["kind"]) =>
    pieces
      .filter((piece) => piece.kind === kind)
      .map((piece) => piece.delta)
      .join("");
  return { thought: join("thought"), text: join("text"), pieces };
}

describe("thinkTagRouter", () => {
  it("streams a think block as thought and the answer as text, tags split across deltas", () => {
    const routed = route(["<th", "ink>", "Reason", "ing </th", "ink", ">\n\n", "Hel", "lo"]);
    expect(routed.thought).toBe("Reasoning ");
    expect(routed.text).toBe("Hello");
    expect(routed.pieces.every((piece) => !piece.delta.includes("<"))).toBe(true);
  });

  it("gives every character of the answer as soon as the reply cannot open a block", () => {
    const router = thinkTagRouter();
    expect(router.push("<")).toEqual([]);
    expect(router.push("b>bold")).toEqual([{ kind: "text", delta: "<b>bold" }]);
    expect(router.push(" more")).toEqual([{ kind: "text", delta: " more" }]);
    expect(thinkTagRouter().push("Hi")).toEqual([{ kind: "text", delta: "Hi" }]);
  });

  it("releases held text at the end: a lone `<` is text, an unclosed block is thought", () => {
    expect(route(["<"]).text).toBe("<");
    expect(route(["<think>", "never closed </thi"])).toMatchObject({ thought: "never closed </thi", text: "" });
  });

  it("agrees with splitThinkTags on the answer for every way of cutting the reply", () => {
    const reply = "<think>\nweigh a, b\n</think>\n\nThe answer is b.";
    for (let cut = 1; cut < reply.length; cut++) {
      const routed = route([reply.slice(0, cut), reply.slice(cut)]);
      expect(routed.text).toBe(splitThinkTags(reply).text);
      expect(routed.thought.trim()).toBe(splitThinkTags(reply).reasoning);
    }
  });
});
