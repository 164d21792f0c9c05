import { describe, expect, it } from "vitest";
import { llmFlow } from "../../bench/llm-flow";
import { compiledVersion } from "./compiled-versions";

describe("compiledVersion", () => {
  it("compiles a version once and answers later runs with the same compile", () => {
    const first = compiledVersion("version-a", llmFlow());
    expect(first?.ok).toBe(true);
    // The id decides: a version's document never changes, so it is not compiled again.
    expect(compiledVersion("version-a", { nodes: "not a document" })).toBe(first);
    expect(compiledVersion("version-b", llmFlow())).not.toBe(first);
  });

  it("answers undefined for a document that needs more than the built-in tools, every time", () => {
    const document = llmFlow();
    const llm = document.nodes.find((node) => node.type === "llm");
    Object.assign(llm ?? {}, { type: "tool", data: { title: "Tool", tool: "a_workspace_tool", input: {} } });
    expect(compiledVersion("version-with-workspace-tool", document)).toBeUndefined();
    expect(compiledVersion("version-with-workspace-tool", llmFlow())).toBeUndefined();
  });
});
