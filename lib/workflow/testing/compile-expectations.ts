import { expect } from "vitest";
import { type CompileResult, compileWorkflow } from "../compile";
import type { WorkflowDocument } from "../document";
import type { WorkflowIssue } from "../issues";
import { testDocument, testEdge, testNode } from "./build-document";

/** Every issue of a result: warnings when it compiled, issues when it did not. */
export function issuesOf(result: CompileResult): WorkflowIssue[] {
  return result.ok ? result.warnings : result.issues;
}

/**
 * Compiles `input` and returns the first issue matching every given field (compared as JSON);
 * fails the test when none matches, or when an error-severity match still compiled.
 */
export function expectIssue(input: unknown, expected: Partial<WorkflowIssue>): WorkflowIssue {
  const result = compileWorkflow(input);
  const issues = issuesOf(result);
  const found = issues.find((issue) =>
    Object.entries(expected).every(
      ([key, value]) => JSON.stringify(issue[key as keyof WorkflowIssue]) === JSON.stringify(value),
    ),
  );
  if (!found) throw new Error(`Expected ${JSON.stringify(expected)} in ${JSON.stringify(issues, null, 1)}`);
  if (found.severity === "error") expect(result.ok).toBe(false);
  return found;
}

/** A copy of a document with extra nodes appended. */
export function withNodes(document: WorkflowDocument, ...nodes: WorkflowDocument["nodes"]): WorkflowDocument {
  return { ...document, nodes: [...document.nodes, ...nodes] };
}

/** A start node with the given inputs (default: one string `query`). */
export const start = (inputs: unknown[] = [{ name: "query", type: "string" }]) =>
  testNode("start", "start", { inputs });
/** An end node returning one output `answer`. */
export const end = (value = "{{start.query}}") => testNode("end", "end", { outputs: [{ name: "answer", value }] });

/** start → …middle (chained) → end, with edges. */
export function chain(...middle: WorkflowDocument["nodes"]): WorkflowDocument {
  const nodes = [
    start([
      { name: "query", type: "string" },
      { name: "items", type: "array" },
      { name: "count", type: "number" },
    ]),
    ...middle,
    end(),
  ];
  const topLevel = nodes.filter((node) => node.parentId === undefined);
  return testDocument(
    nodes,
    topLevel.slice(1).map((node, index) => testEdge(topLevel[index].id, node.id)),
  );
}
