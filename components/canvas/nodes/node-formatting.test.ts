import { describe, expect, it } from "vitest";
import { hostOf, shortTitle } from "./node-formatting";

describe("shortTitle", () => {
  it("keeps a title that fits", () => {
    expect(shortTitle("Search tickets")).toBe("Search tickets");
    expect(shortTitle("a".repeat(22))).toBe("a".repeat(22));
  });

  it("cuts a long title with an ellipsis, without a trailing space", () => {
    expect(shortTitle("a".repeat(23))).toBe(`${"a".repeat(21)}…`);
    expect(shortTitle("Summarise the open t blockers")).toBe("Summarise the open t…");
    expect(shortTitle("Summarise the open    blockers")).toBe("Summarise the open…");
  });

  it("counts wide characters twice and never splits a surrogate pair", () => {
    expect(shortTitle("检索相关工单并总结阻塞原因和负责人")).toBe("检索相关工单并总结阻…");
    expect(shortTitle("检索相关工单并总结阻塞")).toBe("检索相关工单并总结阻塞");
    expect(shortTitle("🚀".repeat(12))).toBe(`${"🚀".repeat(10)}…`);
  });
});

describe("hostOf", () => {
  it("shows the host of an absolute URL and the text before the path of a template", () => {
    expect(hostOf("https://api.example.com/v1/items")).toBe("api.example.com");
    expect(hostOf("{{start.base}}/items")).toBe("{{start.base}}");
  });
});
