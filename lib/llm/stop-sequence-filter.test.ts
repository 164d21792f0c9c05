import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutAtStopSequence, StopSequenceFilter } from "./stop-sequence-filter";

function runFilter(pieces: string[], stops: string[]): { emitted: string[]; stopped: boolean } {
  const filter = new StopSequenceFilter(stops);
  const emitted: string[] = [];
  let stopped = false;
  for (const piece of pieces) {
    const result = filter.push(piece);
    if (result.text) emitted.push(result.text);
    if (result.stopped) {
      stopped = true;
      break;
    }
  }
  if (!stopped) emitted.push(filter.flush());
  return { emitted, stopped };
}

describe("StopSequenceFilter", () => {
  it("cuts at a stop sequence split across deltas and never emits part of it", () => {
    const { emitted, stopped } = runFilter(["Action: x\nObs", "erv", "ation: y"], ["\nObservation:"]);
    expect(emitted.join("")).toBe("Action: x");
    expect(stopped).toBe(true);
    expect(emitted.some((piece) => piece.includes("\n"))).toBe(false);
  });

  it("releases a held-back tail that did not become a stop sequence", () => {
    const { emitted, stopped } = runFilter(["Answer\nOb", "vious"], ["\nObservation:"]);
    expect(emitted.join("")).toBe("Answer\nObvious");
    expect(stopped).toBe(false);
  });

  it("picks the earliest of several stop sequences", () => {
    expect(cutAtStopSequence("a STOP b END", ["END", "STOP"])).toEqual({ text: "a ", stopped: true });
    expect(cutAtStopSequence("plain", ["END"])).toEqual({ text: "plain", stopped: false });
  });

  it("matches the one-shot cut for any way of splitting the text", () => {
    const alphabet = fc.constantFrom("a", "b", "O", "\n", ":", " ");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join("")),
        fc.array(
          fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((chars) => chars.join("")),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(fc.nat(40), { maxLength: 6 }),
        (text, stops, cuts) => {
          const points = [...new Set(cuts.filter((cut) => cut < text.length))].sort((left, right) => left - right);
          const pieces: string[] = [];
          let start = 0;
          for (const point of points) {
            pieces.push(text.slice(start, point));
            start = point;
          }
          pieces.push(text.slice(start));
          const expected = cutAtStopSequence(text, stops);
          const { emitted, stopped } = runFilter(pieces, stops);
          expect(emitted.join("")).toBe(expected.text);
          expect(stopped).toBe(expected.stopped);
        },
      ),
    );
  });
});
