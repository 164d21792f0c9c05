import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { compileNodeRun } from "./compile-node-run";
import { testNode } from "./testing/build-document";
import { chain, issuesOf } from "./testing/compile-expectations";

const known = ["get_current_weather", "code"];

describe("compileWorkflow: tool names", () => {
  it("reports a tool node naming a tool the workspace lacks, with the node id and field path", () => {
    const document = chain(testNode("lookup", "tool", { tool: "get_weather_now" }));
    const result = compileWorkflow(document, { knownToolNames: known });
    expect(result.ok).toBe(false);
    expect(issuesOf(result)).toContainEqual(
      expect.objectContaining({ code: "unknown_tool", nodeId: "lookup", path: ["data", "tool"], severity: "error" }),
    );
  });

  it("reports unknown agent and planner tools by index", () => {
    const document = chain(
      testNode("agent_1", "agent", { query: "{{start.query}}", tools: ["code", "missing_tool"] }),
      testNode("plan", "planner", { goal: "{{start.query}}", tools: ["nope"] }),
    );
    const issues = issuesOf(compileWorkflow(document, { knownToolNames: known })).filter(
      (issue) => issue.code === "unknown_tool",
    );
    expect(issues.map((issue) => [issue.nodeId, issue.path])).toEqual([
      ["agent_1", ["data", "tools", 1]],
      ["plan", ["data", "tools", 0]],
    ]);
  });

  it("accepts known and templated tool names, and checks nothing without the option", () => {
    expect(compileWorkflow(chain(testNode("t", "tool", { tool: "code" })), { knownToolNames: known }).ok).toBe(true);
    expect(compileWorkflow(chain(testNode("t", "tool", { tool: "{{start.query}}" })), { knownToolNames: [] }).ok).toBe(
      true,
    );
    expect(compileWorkflow(chain(testNode("t", "tool", { tool: "anything" }))).ok).toBe(true);
  });

  it("refuses a single-node run of a tool node with an unknown tool", () => {
    const document = chain(testNode("lookup", "tool", { tool: "get_weather_now" }));
    const result = compileNodeRun(document, "lookup", { knownToolNames: known });
    expect(result.ok).toBe(false);
  });
});
