import { describe, expect, it } from "vitest";
import type { WorkflowListItem } from "./workflow-list";
import { filterAndSortWorkflows } from "./workflow-list-order";

const row = (
  name: string,
  updatedAt: string,
  publishedVersion: number | null,
  description = "",
  tagIds: string[] = [],
): WorkflowListItem => ({
  id: name,
  name,
  description,
  updatedAt,
  lastRunStatus: null,
  publishedVersion,
  isTemplate: false,
  tagIds,
});

const rows = [
  row("beta", "2026-12-01T10:00:00Z", 2, "", ["t-ops"]),
  row("Alpha", "2026-12-01T09:00:00Z", null, "weather bet", ["t-ops", "t-support"]),
  row("gamma", "2026-12-01T11:00:00Z", 5),
];

describe("filterAndSortWorkflows", () => {
  it("sorts by last edit (newest first), by name (any case) and by published version", () => {
    expect(filterAndSortWorkflows(rows, "", "updated").map((r) => r.name)).toEqual(["gamma", "beta", "Alpha"]);
    expect(filterAndSortWorkflows(rows, "", "name").map((r) => r.name)).toEqual(["Alpha", "beta", "gamma"]);
    expect(filterAndSortWorkflows(rows, "", "published").map((r) => r.name)).toEqual(["gamma", "beta", "Alpha"]);
  });

  it("searches names and descriptions, ignoring case and surrounding space", () => {
    expect(filterAndSortWorkflows(rows, "  WEATHER ", "name").map((r) => r.name)).toEqual(["Alpha"]);
    expect(filterAndSortWorkflows(rows, "a", "name").map((r) => r.name)).toEqual(["Alpha", "beta", "gamma"]);
    expect(filterAndSortWorkflows(rows, "zzz", "name")).toEqual([]);
  });

  it("keeps only the rows with the chosen tag, combined with the search; a vanished tag keeps none", () => {
    expect(filterAndSortWorkflows(rows, "", "name", "t-ops").map((r) => r.name)).toEqual(["Alpha", "beta"]);
    expect(filterAndSortWorkflows(rows, "bet", "name", "t-support").map((r) => r.name)).toEqual(["Alpha"]);
    expect(filterAndSortWorkflows(rows, "gamma", "name", "t-ops")).toEqual([]);
    expect(filterAndSortWorkflows(rows, "", "name", null)).toEqual([]);
    expect(filterAndSortWorkflows(rows, "", "name", undefined)).toHaveLength(3);
  });
});
