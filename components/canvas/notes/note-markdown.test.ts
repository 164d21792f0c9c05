import { describe, expect, it } from "vitest";
import { parseInline, parseNoteMarkdown } from "./note-markdown";

describe("note markdown", () => {
  it("parses headings, paragraphs, lists and code fences", () => {
    const blocks = parseNoteMarkdown("# Title\nfirst line\nsecond line\n\n- one\n- **two**\n1. a\n```\n<b>x</b>\n```");
    expect(blocks).toEqual([
      { kind: "heading", level: 1, children: [{ kind: "text", text: "Title" }] },
      { kind: "paragraph", children: [{ kind: "text", text: "first line second line" }] },
      {
        kind: "list",
        ordered: false,
        items: [[{ kind: "text", text: "one" }], [{ kind: "strong", children: [{ kind: "text", text: "two" }] }]],
      },
      { kind: "list", ordered: true, items: [[{ kind: "text", text: "a" }]] },
      { kind: "code", text: "<b>x</b>" },
    ]);
  });

  it("keeps raw HTML as text and drops unsafe link targets", () => {
    expect(parseInline("<img src=x onerror=alert(1)>")).toEqual([
      { kind: "text", text: "<img src=x onerror=alert(1)>" },
    ]);
    expect(parseInline("[x](javascript:alert(1))")).toEqual([{ kind: "text", text: "[x](javascript:alert(1))" }]);
    expect(parseInline("see [docs](https://example.test/a) and `code` *it*")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", href: "https://example.test/a", children: [{ kind: "text", text: "docs" }] },
      { kind: "text", text: " and " },
      { kind: "code", text: "code" },
      { kind: "text", text: " " },
      { kind: "emphasis", children: [{ kind: "text", text: "it" }] },
    ]);
  });
});
