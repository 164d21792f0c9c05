import { describe, expect, it } from "vitest";
import { detectImportFormat } from "./detect-format";

describe("detectImportFormat", () => {
  it("reads JSON objects as Trellis exports and everything else as Dify YAML", () => {
    expect(detectImportFormat('  {"name": "x", "document": {}}')).toBe("trellis");
    expect(detectImportFormat("app:\n  mode: workflow\n")).toBe("dify");
    expect(detectImportFormat("{app: {mode: workflow}, kind: app}")).toBe("dify");
    expect(detectImportFormat("")).toBe("dify");
  });
});
