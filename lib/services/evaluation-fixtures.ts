import "server-only";
import type { DatasetCase } from "../evaluation/model/dataset";
import type { DatasetImportIssue } from "../evaluation/model/dataset-io";

/**
 * The tool names a workflow document uses (tool nodes' `tool`, agents' and planners' `tools`), or
 * null when one is templated (chosen at run time, so any tool may be called).
 */
export function documentToolNames(document: unknown): Set<string> | null {
  const names = new Set<string>();
  const nodes = (document as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return names;
  for (const node of nodes as { type?: unknown; data?: { tool?: unknown; tools?: unknown } }[]) {
    const candidates =
      node.type === "tool" ? [node.data?.tool] : Array.isArray(node.data?.tools) ? node.data.tools : [];
    for (const name of candidates) {
      if (typeof name !== "string") continue;
      if (name.includes("{{")) return null;
      names.add(name);
    }
  }
  return names;
}

/**
 * A fixture naming a tool the workflow never calls would inject nothing, and its case would pass
 * without meeting the fault: each such tool is an issue naming the field.
 */
export function fixtureToolIssues(cases: readonly DatasetCase[], document: unknown): DatasetImportIssue[] {
  const used = documentToolNames(document);
  if (!used) return [];
  const issues: DatasetImportIssue[] = [];
  cases.forEach((entry, caseIndex) => {
    entry.fixture?.tools.forEach((fixture, toolIndex) => {
      if (!used.has(fixture.tool))
        issues.push({
          line: 0,
          field: `cases.${caseIndex}.fixture.tools.${toolIndex}.tool`,
          message: `Case "${entry.id}": the workflow does not use tool "${fixture.tool}" (it uses ${[...used].join(", ") || "no tools"}), so the fixture would inject nothing`,
        });
    });
  });
  return issues;
}
