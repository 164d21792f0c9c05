import type { WorkflowListItem } from "./workflow-list";

/** How the list is ordered. */
export type WorkflowSort = "updated" | "name" | "published";

/**
 * The rows matching `search` (name or description, any case) and carrying the tag `tagId` (when
 * given; `undefined` keeps every row, `null` is a filter on a tag that no longer exists and keeps
 * none), in `sort` order.
 */
export function filterAndSortWorkflows(
  workflows: readonly WorkflowListItem[],
  search: string,
  sort: WorkflowSort,
  tagId?: string | null,
): WorkflowListItem[] {
  const needle = search.trim().toLowerCase();
  const matching = workflows.filter(
    (workflow) =>
      (!needle || `${workflow.name}\n${workflow.description}`.toLowerCase().includes(needle)) &&
      (tagId === undefined || (tagId !== null && workflow.tagIds.includes(tagId))),
  );
  const byName = (left: WorkflowListItem, right: WorkflowListItem) =>
    left.name.localeCompare(right.name, undefined, { sensitivity: "base" });
  if (sort === "name") return matching.sort(byName);
  if (sort === "published")
    return matching.sort(
      (left, right) => (right.publishedVersion ?? 0) - (left.publishedVersion ?? 0) || byName(left, right),
    );
  return matching.sort((left, right) => right.updatedAt.localeCompare(left.updatedAt));
}
