import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { diffWorkflowDocuments } from "@/lib/workflow/version-diff";
import { describeDiff, formatDiffValue, movedOnlyCount, pathSegments } from "./version-diff-lines";

const before: WorkflowDocument = {
  schemaVersion: 2,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 0 },
      data: { title: "Start", inputs: [{ name: "q", type: "string" }] },
    },
    {
      id: "llm",
      type: "llm",
      position: { x: 200, y: 0 },
      data: { title: "Answer", prompt: "Say hi", temperature: 0.2 },
    },
    { id: "old", type: "template", position: { x: 200, y: 200 }, data: { title: "Old step", template: "x" } },
    { id: "end", type: "end", position: { x: 400, y: 0 }, data: { title: "End", outputs: [] } },
  ],
  edges: [
    { id: "a", source: "start", target: "llm" },
    { id: "b", source: "llm", target: "end" },
    { id: "c", source: "start", target: "old" },
  ],
};

const after: WorkflowDocument = {
  schemaVersion: 2,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 50, y: 0 },
      data: { title: "Start", inputs: [{ name: "query", type: "string" }] },
    },
    {
      id: "llm",
      type: "llm",
      position: { x: 200, y: 0 },
      data: { title: "Answer", prompt: "Say hello", maxTokens: 50 },
    },
    { id: "new", type: "template", position: { x: 200, y: 200 }, data: { title: "New step", template: "y" } },
    { id: "end", type: "end", position: { x: 400, y: 0 }, data: { title: "End", outputs: [] } },
  ],
  edges: [
    { id: "a2", source: "start", target: "llm" },
    { id: "b", source: "llm", target: "end" },
    { id: "d", source: "llm", sourceHandle: "text", target: "new" },
  ],
};

describe("version diff rendering", () => {
  it("names nodes by title and lists field changes with their labels and values", () => {
    const diff = diffWorkflowDocuments(before, after);
    const titles = { start: "Start", llm: "Answer", old: "Old step", new: "New step", end: "End" };
    const lines = describeDiff(diff, titles).map((line) => `${line.kind} ${line.scope} ${line.text}`);
    expect(lines).toEqual([
      "added node New step (template)",
      "removed node Old step (template)",
      "changed node Start (start)",
      'changed field Name (input 1): "q" → "query"',
      "changed node Answer (llm)",
      "added field Max tokens: none → 50",
      'changed field Prompt: "Say hi" → "Say hello"',
      "removed field Temperature: 0.2 → none",
      "added edge Answer (text) → New step",
      "removed edge Start → Old step",
    ]);
    // A redrawn connection with a new id is not a change; a pure move is counted apart.
    expect(lines.some((line) => line.includes("Start → Answer"))).toBe(false);
    expect(movedOnlyCount(diff)).toBe(0);
  });

  it("is empty for identical documents and counts layout-only moves", () => {
    const moved = structuredClone(before);
    moved.nodes[1].position = { x: 999, y: 9 };
    const diff = diffWorkflowDocuments(before, moved);
    expect(describeDiff(diff, {})).toEqual([]);
    expect(movedOnlyCount(diff)).toBe(1);
  });

  it("parses field paths and cuts long values", () => {
    expect(pathSegments("data.tools[1].name")).toEqual(["data", "tools", 1, "name"]);
    expect(formatDiffValue("x".repeat(200))).toHaveLength(80);
    expect(formatDiffValue({ a: 1 })).toBe('{"a":1}');
  });
});
