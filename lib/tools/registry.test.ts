import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool";
import { ToolNameCollisionError } from "./errors/tool-name-collision-error";
import { composeToolRegistries, createToolRegistry, listToolSummaries, selectTools } from "./registry";

const tool = (name: string, kind: "built-in" | "mcp" = "built-in", label = "Built-in") =>
  defineTool({
    name,
    description: `${name} tool`,
    parameters: { type: "object" },
    source: { kind, label },
    execute: () => name,
  });

describe("tool registry", () => {
  it("looks tools up by name and lists them in order", () => {
    const registry = createToolRegistry([tool("a"), tool("b")]);
    expect(registry.get("b")?.name).toBe("b");
    expect(registry.get("c")).toBeUndefined();
    expect(registry.list().map((entry) => entry.name)).toEqual(["a", "b"]);
  });

  it("rejects name collisions across composed sources with both sources named", () => {
    const builtIns = createToolRegistry([tool("echo")]);
    const mcp = createToolRegistry([tool("echo", "mcp", "everything")]);
    expect(() => composeToolRegistries([builtIns, mcp])).toThrow(ToolNameCollisionError);
    expect(() => composeToolRegistries([builtIns, mcp])).toThrow(/built-in "Built-in" and by mcp "everything"/);
  });

  it("composes distinct registries and selects subsets", () => {
    const composed = composeToolRegistries([
      createToolRegistry([tool("a")]),
      createToolRegistry([tool("b", "mcp", "srv")]),
    ]);
    expect(composed.list()).toHaveLength(2);
    expect(
      selectTools(composed, ["b", "b", "missing"])
        .list()
        .map((entry) => entry.name),
    ).toEqual(["b"]);
  });

  it("summarizes tools for the UI", () => {
    expect(listToolSummaries(createToolRegistry([tool("a")]))).toEqual([
      { name: "a", description: "a tool", readOnly: false, source: { kind: "built-in", label: "Built-in" } },
    ]);
  });
});
