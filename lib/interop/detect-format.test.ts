import { describe, expect, it } from "vitest";
import { detectImportFormat } from "./detect-format";

describe("detectImportFormat", () => {
  it("reads JSON objects as Trellis exports and everything else as Dify YAML", () => {
    expect(detectImportFormat('  {"name": "x", "document": {}}')).toBe("trellis");
    expect(detectImportFormat("app:\n  mode: workflow\n")).toBe("dify");
    expect(detectImportFormat("{app: {mode: workflow}, kind: app}")).toBe("dify");
    expect(detectImportFormat("")).toBe("dify");
  });

  it("reads Dify's export API answer ({ data: <the YAML> }) as Dify", () => {
    expect(detectImportFormat(JSON.stringify({ data: "app:\n  mode: workflow\nkind: app\n" }))).toBe("dify");
    // A Trellis file is never taken for one: it has kind, and its document is not a string.
    expect(detectImportFormat(JSON.stringify({ kind: "trellis-workflow", data: "x", document: {} }))).toBe("trellis");
  });
});
