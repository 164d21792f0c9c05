import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../services/published-catalog";
import { assignToolNames, toolNameForSlug } from "./mcp-server";

describe("MCP tool names from slugs", () => {
  it("keeps valid slugs and replaces other characters with _", () => {
    expect(toolNameForSlug("weekly-report_2")).toBe("weekly-report_2");
    expect(toolNameForSlug("café.bot v2")).toBe("caf__bot_v2");
    expect(toolNameForSlug("")).toBe("workflow");
  });

  it("cuts to 64 characters and makes clashing names unique", () => {
    const long = "a".repeat(80);
    expect(toolNameForSlug(long)).toHaveLength(64);
    const entries = ["a.b", "a_b", long, `${long}x`].map((slug) => ({ slug }) as CatalogEntry);
    const names = [...assignToolNames(entries).keys()];
    expect(names).toEqual(["a_b", "a_b_2", "a".repeat(64), `${"a".repeat(62)}_2`]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
