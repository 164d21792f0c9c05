import { describe, expect, it } from "vitest";
import { mentionHandle, mentionTokens, nodeRunLink } from "./run-review-view";

describe("mentions", () => {
  it("finds @names once each, not e-mail addresses, and trims trailing punctuation", () => {
    expect(mentionTokens("@ada and @Bob, see @ada. Mail bob@example.test (@chen-li_2)")).toEqual([
      "ada",
      "Bob",
      "chen-li_2",
    ]);
    expect(mentionTokens("no mentions here, 3 @ 4")).toEqual([]);
    expect(mentionTokens("@Zoë sees it")).toEqual(["Zoë"]);
  });

  it("mentions a member by the name without spaces, any case", () => {
    expect(mentionHandle("Ada  Lovelace")).toBe("adalovelace");
  });

  it("links a node run to the inspector", () => {
    expect(nodeRunLink("run 1", "answer", "r:answer:[]:2")).toBe(
      "/runs/run%201?node=answer&nodeRun=r%3Aanswer%3A%5B%5D%3A2",
    );
    expect(nodeRunLink("r", "answer")).toBe("/runs/r?node=answer");
  });
});
