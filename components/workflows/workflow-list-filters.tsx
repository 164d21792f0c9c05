"use client";

import { TagsIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { SearchInput } from "@/components/ui/search-input";
import type { WorkflowTagView } from "@/lib/contracts/workflow-tag";
import type { WorkflowSort } from "./workflow-list-order";

/**
 * The workflow list's toolbar: search, sort and tag filter on one wrapping line, labels beside
 * their controls, and how many rows match while a filter is on.
 */
export function WorkflowListFilters({
  search,
  onSearch,
  sort,
  onSort,
  tags,
  tagFilter,
  onTagFilter,
  onManageTags,
  count,
}: {
  search: string;
  onSearch: (value: string) => void;
  sort: WorkflowSort;
  onSort: (value: WorkflowSort) => void;
  /** The workspace's tags. */
  tags: WorkflowTagView[];
  /** The chosen tag's name (it may name no tag: a link made before a rename). */
  tagFilter: string | null;
  onTagFilter: (value: string | null) => void;
  /** Opens the tag manager; absent for viewers and while there is no tag. */
  onManageTags?: () => void;
  /** Shown and total rows, while a filter is on. */
  count: { shown: number; total: number } | null;
}) {
  const knownTag = tags.some((tag) => tag.name === tagFilter);
  return (
    <search className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <SearchInput
        wrapperClassName="sm:w-72"
        placeholder="Search workflows"
        aria-label="Search workflows by name or description"
        data-testid="workflow-search"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
      <div className="flex items-center gap-2">
        <Label htmlFor="workflow-sort" className="font-normal whitespace-nowrap text-muted-foreground">
          Sort by
        </Label>
        <NativeSelect
          id="workflow-sort"
          wrapperClassName="w-44"
          data-testid="workflow-sort"
          value={sort}
          onChange={(event) => onSort(event.target.value as WorkflowSort)}
        >
          <option value="updated">Last edited</option>
          <option value="name">Name</option>
          <option value="published">Published version</option>
        </NativeSelect>
      </div>
      {(tags.length > 0 || tagFilter !== null) && (
        <div className="flex items-center gap-2">
          <Label htmlFor="workflow-tag-filter" className="font-normal text-muted-foreground">
            Tag
          </Label>
          <NativeSelect
            id="workflow-tag-filter"
            wrapperClassName="w-44"
            data-testid="workflow-tag-filter"
            value={tagFilter ?? ""}
            onChange={(event) => onTagFilter(event.target.value || null)}
          >
            <option value="">All tags</option>
            {tags.map((tag) => (
              <option key={tag.id} value={tag.name}>
                {tag.name} ({tag.workflowCount})
              </option>
            ))}
            {tagFilter !== null && !knownTag && <option value={tagFilter}>{tagFilter}</option>}
          </NativeSelect>
          {onManageTags && (
            <Button variant="ghost" data-testid="manage-tags-button" onClick={onManageTags}>
              <TagsIcon /> Manage tags
            </Button>
          )}
        </div>
      )}
      {count && (
        <span className="ml-auto text-sm text-muted-foreground" data-testid="workflow-search-count">
          {count.shown} of {count.total}
        </span>
      )}
    </search>
  );
}
