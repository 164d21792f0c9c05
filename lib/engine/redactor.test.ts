import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED } from "./redactor";

describe("createRedactor", () => {
  const secret = "sk-live-0123456789";
  const redactor = createRedactor([secret, "short", "   "])!;

  it("masks secrets of at least 8 characters in text and nested values, keeping untouched objects", () => {
    expect(redactor.redactText(`key=${secret}; again ${secret}`)).toBe(`key=${REDACTED}; again ${REDACTED}`);
    const clean = { a: ["x", { b: "short" }] };
    expect(redactor.redact(clean)).toBe(clean);
    expect(redactor.redact({ a: [{ b: `x${secret}` }] })).toEqual({ a: [{ b: `x${REDACTED}` }] });
  });

  it("holds back a stream tail that may start a secret, and nothing else", () => {
    expect(redactor.splitStream("hello world")).toEqual({ ready: "hello world", held: "" });
    expect(redactor.splitStream("my key: sk-li")).toEqual({ ready: "my key: ", held: "sk-li" });
    // A tail that is not the start of any secret goes out.
    expect(redactor.splitStream("my key: sk-x")).toEqual({ ready: "my key: sk-x", held: "" });
  });

  it("joins pieces so a secret split anywhere never goes out, and loses no text", () => {
    const text = `before ${secret} after ${secret.slice(0, 4)}`;
    for (let first = 1; first < text.length; first++) {
      for (const second of [first + 1, first + 3, first + 9]) {
        const pieces = [text.slice(0, first), text.slice(first, second), text.slice(second)];
        let held = "";
        let out = "";
        for (const piece of pieces) {
          const split = redactor.splitStream(held + piece);
          out += split.ready;
          held = split.held;
        }
        out += redactor.redactText(held);
        expect(out).toBe(`before ${REDACTED} after ${secret.slice(0, 4)}`);
      }
    }
  });

  it("sends a whole secret out masked even when another secret's prefix follows it", () => {
    const two = createRedactor(["abcdefgh", "ghijklmn"])!;
    const split = two.splitStream("xxabcdefgh");
    expect(split.ready + two.redactText(split.held)).toBe(`xx${REDACTED}`);
    expect(split.ready).not.toContain("abcdef");
  });
});
