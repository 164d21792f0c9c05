import { describe, expect, it } from "vitest";
import { MATCH_END, MATCH_START, parseSearchTerms, splitSnippet } from "./search-highlight";

describe("search highlight", () => {
  it("splits a snippet into plain and matched parts without interpreting HTML", () => {
    expect(splitSnippet(`a <b>${MATCH_START}refund${MATCH_END} now`)).toEqual([
      { text: "a <b>", match: false },
      { text: "refund", match: true },
      { text: " now", match: false },
    ]);
    expect(splitSnippet(`${MATCH_START}open`)).toEqual([{ text: "open", match: true }]);
  });

  it("reads words and quoted phrases as terms", () => {
    expect(parseSearchTerms(' refund "late order"  x ')).toEqual(["refund", "late order", "x"]);
    expect(parseSearchTerms('  ""  ')).toEqual([]);
  });
});
