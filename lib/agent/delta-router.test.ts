import { describe, expect, it } from "vitest";
import { type RoutedDelta, toolAwareRouter } from "./delta-router";

function joined(pieces: RoutedDelta[], kind: RoutedDelta["kind"]): string {
  return pieces
    .filter((piece) => piece.kind === kind)
    .map((piece) => piece.delta)
    .join("");
}

describe("toolAwareRouter (function calling)", () => {
  it("turns text written before a tool call into thought, including the rest of that turn", () => {
    const router = toolAwareRouter();
    const out = [...router.push("Let me check "), ...router.push("the weather."), ...router.toolCall!()];
    out.push(...router.push(" (more)"), ...router.flush());
    expect(joined(out, "thought")).toBe("Let me check the weather. (more)");
    expect(joined(out, "text")).toBe("");
  });

  it("releases a turn without tool calls as answer text, at the end or once it is clearly an answer", () => {
    const short = toolAwareRouter();
    expect(short.push("It rained.")).toEqual([]);
    expect(short.flush()).toEqual([{ kind: "text", delta: "It rained." }]);

    const long = toolAwareRouter();
    const first = long.push("x".repeat(200));
    expect(first).toEqual([{ kind: "text", delta: "x".repeat(200) }]);
    expect(long.push("y")).toEqual([{ kind: "text", delta: "y" }]);
    // Decided: a late tool call no longer relabels what was streamed.
    expect(long.toolCall!()).toEqual([]);

    const paragraph = toolAwareRouter();
    expect(joined(paragraph.push("Summary:\n\nFirst point"), "text")).toBe("Summary:\n\nFirst point");
  });
});
