import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, readHeapGrowingPercent } from "./heap-settings";

describe("TRELLIS_HEAP_GROWING_PERCENT", () => {
  it("defaults to 50 and accepts 0 (V8's own policy) to 1000", () => {
    expect(readHeapGrowingPercent({})).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(50);
    expect(readHeapGrowingPercent({ TRELLIS_HEAP_GROWING_PERCENT: " 0 " })).toBe(0);
    expect(readHeapGrowingPercent({ TRELLIS_HEAP_GROWING_PERCENT: "1000" })).toBe(1000);
  });

  it("names the setting for anything else", () => {
    for (const value of ["-1", "1001", "50%", "abc", "1.5"]) {
      expect(() => readHeapGrowingPercent({ TRELLIS_HEAP_GROWING_PERCENT: value })).toThrow(
        /^TRELLIS_HEAP_GROWING_PERCENT: /,
      );
    }
  });
});
