import { describe, expect, it } from "vitest";
import { TwoGenerationCache } from "./template-cache";
import { parseTemplate } from "./variables";

describe("TwoGenerationCache", () => {
  it("keeps recently used entries across rotations and evicts the least recently used", () => {
    const cache = new TwoGenerationCache<number>(3, 1_000);
    for (const key of ["a", "b", "c"]) cache.set(key, key.charCodeAt(0));
    cache.set("d", 100); // current is full: rotates, so a, b, c are now the previous generation
    cache.set("e", 101);
    expect(cache.get("a")).toBe(97); // a hit in the previous generation moves a to the current one
    cache.set("f", 102); // rotates again: b and c, unused since the last rotation, are dropped
    cache.set("g", 103);
    expect(cache.has("b")).toBe(false);
    expect(cache.has("c")).toBe(false);
    expect(cache.get("a")).toBe(97);
    expect(cache.get("d")).toBe(100);
  });

  it("never evicts an entry that keeps being used, however many others pass through", () => {
    const cache = new TwoGenerationCache<string>(100, 1_000_000);
    cache.set("hot", "parsed");
    for (let index = 0; index < 10_000; index++) {
      cache.set(`cold${index}`, "once");
      expect(cache.get("hot")).toBe("parsed");
    }
  });

  it("holds a working set of one generation's size on every pass", () => {
    const cache = new TwoGenerationCache<string>(1_000, 1_000_000);
    const keys = Array.from({ length: 1_000 }, (_, index) => `{{t${index}.text}}`);
    for (const key of keys) cache.set(key, key);
    for (let pass = 0; pass < 3; pass++) {
      for (const key of keys) expect(cache.get(key)).toBe(key);
    }
  });

  it("stays bounded by entries and by key characters", () => {
    const byCount = new TwoGenerationCache<number>(100, 1_000_000);
    for (let index = 0; index < 10_000; index++) byCount.set(`k${index}`, index);
    expect(byCount.size).toBeLessThanOrEqual(200);
    const byCharacters = new TwoGenerationCache<number>(1_000_000, 10_000);
    const long = "x".repeat(1_000);
    for (let index = 0; index < 1_000; index++) byCharacters.set(`${index}${long}`, index);
    expect(byCharacters.size).toBeLessThanOrEqual(20);
  });
});

describe("parseTemplate cache", () => {
  it("returns the same parse for 10,000 distinct templates on a second pass", () => {
    const templates = Array.from({ length: 10_000 }, (_, index) => `{{node${index}.text}} and more`);
    const first = templates.map((template) => parseTemplate(template));
    const second = templates.map((template) => parseTemplate(template));
    expect(second.every((parsed, index) => parsed === first[index])).toBe(true);
  });
});
