"use client";

import { DownloadIcon, SearchIcon, XIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Combobox } from "@/components/ui/combobox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/run-status";
import type { HistoryFilters } from "./history-query";

/** The choices of the workflow, version and API key pickers (`GET /api/runs/filter-options`). */
interface FilterOptions {
  workflows: { id: string; name: string }[];
  versions: { id: string; version: number; note: string }[];
  apiKeys: { id: string; name: string; prefix: string; revoked: boolean }[];
}

/** Loads the pickers' choices; the versions are those of `workflowId` (none without one). */
function useFilterOptions(workflowId: string): FilterOptions | null {
  const [options, setOptions] = useState<FilterOptions | null>(null);
  useEffect(() => {
    let current = true;
    const query = workflowId ? `?workflowId=${encodeURIComponent(workflowId)}` : "";
    void fetch(`/api/runs/filter-options${query}`)
      .then((response) => (response.ok ? (response.json() as Promise<FilterOptions>) : null))
      .catch(() => null)
      .then((body) => {
        if (current) setOptions(body);
      });
    return () => {
      current = false;
    };
  }, [workflowId]);
  return options;
}

const SORTS: { value: string; label: string }[] = [
  { value: "startedAt:desc", label: "Newest first" },
  { value: "startedAt:asc", label: "Oldest first" },
  { value: "durationMs:desc", label: "Longest first" },
  { value: "durationMs:asc", label: "Shortest first" },
  { value: "cost:desc", label: "Most expensive first" },
  { value: "cost:asc", label: "Cheapest first" },
];

/** One filter of the grid: its label above its control. */
function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={id} className="whitespace-nowrap">
        {label}
      </Label>
      {children}
    </div>
  );
}

/**
 * The history's search and filters on one card: the search with Clear and Export beside it, and
 * a grid of labelled filters (label above control) that wraps to fewer columns on narrow screens
 * instead of pushing the page sideways. Each change is applied to the URL at once (`apply`);
 * the number fields on blur, the search on submit.
 */
export function RunHistoryFilters({
  filters,
  apply,
  fixedWorkflowId,
  filtered,
  onClear,
  exportHref,
}: {
  filters: HistoryFilters;
  apply: (patch: Partial<HistoryFilters>) => void;
  /** On a workflow's own history the workflow is fixed (no workflow picker; its versions still are). */
  fixedWorkflowId?: string;
  /** True when a filter is on (Clear is offered). */
  filtered: boolean;
  onClear: () => void;
  /** The JSONL export of the same filtered set. */
  exportHref: string;
}) {
  const [searchText, setSearchText] = useState(filters.q);
  useEffect(() => setSearchText(filters.q), [filters.q]);
  const chosenWorkflowId = fixedWorkflowId ?? filters.workflowId;
  const options = useFilterOptions(chosenWorkflowId);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    apply({ q: searchText.trim() });
  };
  return (
    <Card className="flex flex-col gap-3 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <form className="flex min-w-64 flex-1 items-center gap-2" aria-label="Search runs" onSubmit={submitSearch}>
          <div className="relative min-w-0 flex-1">
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              type="search"
              className="pl-8"
              aria-label="Search runs"
              data-testid="history-search"
              placeholder='Search inputs, outputs and errors (words or "a phrase")'
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </div>
          <Button type="submit" data-testid="history-search-submit">
            Search
          </Button>
        </form>
        <div className="ml-auto flex items-center gap-2">
          {filtered && (
            <Button variant="ghost" data-testid="history-clear" onClick={onClear}>
              <XIcon aria-hidden /> Clear filters
            </Button>
          )}
          <Button asChild>
            <a data-testid="history-export" href={exportHref} download>
              <DownloadIcon aria-hidden /> Export JSONL
            </a>
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="history-filters">
        {!fixedWorkflowId && (
          <Combobox
            label="Workflow"
            testId="history-workflow"
            value={filters.workflowId}
            options={(options?.workflows ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))}
            placeholder="Search workflows…"
            emptyText="No workflow matches."
            // Versions belong to one workflow: a new workflow clears the version.
            onChange={(value) => apply({ workflowId: value, versionId: "" })}
          />
        )}
        <Combobox
          label="Version"
          testId="history-version"
          value={filters.versionId}
          options={(options?.versions ?? []).map((version) => ({
            value: version.id,
            label: `v${version.version}`,
            hint: version.note || undefined,
          }))}
          anyLabel={chosenWorkflowId ? "any" : "choose a workflow"}
          placeholder="Search versions…"
          emptyText="No published version."
          disabled={!chosenWorkflowId && !filters.versionId}
          onChange={(value) => apply({ versionId: value })}
        />
        <Combobox
          label="API key"
          testId="history-api-key"
          value={filters.apiKeyId}
          options={(options?.apiKeys ?? []).map((key) => ({
            value: key.id,
            label: key.name,
            hint: `${key.prefix}…${key.revoked ? " · revoked" : ""}`,
          }))}
          placeholder="Search keys…"
          emptyText="No API key."
          onChange={(value) => apply({ apiKeyId: value })}
        />
        <FilterField id="history-status" label="Status">
          <NativeSelect
            id="history-status"
            data-testid="history-status"
            value={filters.status}
            onChange={(event) => apply({ status: event.target.value })}
          >
            <option value="">any</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
            {filters.status.includes(",") && (
              <option value={filters.status}>{filters.status.replaceAll(",", ", ")}</option>
            )}
          </NativeSelect>
        </FilterField>
        <FilterField id="history-trigger" label="Trigger">
          <NativeSelect
            id="history-trigger"
            data-testid="history-trigger"
            value={filters.trigger}
            onChange={(event) => apply({ trigger: event.target.value })}
          >
            <option value="">any</option>
            {RUN_TRIGGERS.map((trigger) => (
              <option key={trigger} value={trigger}>
                {trigger}
              </option>
            ))}
          </NativeSelect>
        </FilterField>
        <FilterField id="history-from" label="From">
          <Input
            id="history-from"
            type="date"
            data-testid="history-from"
            value={filters.from}
            onChange={(event) => apply({ from: event.target.value })}
          />
        </FilterField>
        <FilterField id="history-to" label="To">
          <Input
            id="history-to"
            type="date"
            data-testid="history-to"
            value={filters.to}
            onChange={(event) => apply({ to: event.target.value })}
          />
        </FilterField>
        <FilterField id="history-min-duration" label="Min duration (s)">
          <Input
            id="history-min-duration"
            type="number"
            min={0}
            step="any"
            data-testid="history-min-duration"
            defaultValue={filters.minDuration}
            key={`duration-${filters.minDuration}`}
            onBlur={(event) => apply({ minDuration: event.target.value })}
          />
        </FilterField>
        <FilterField id="history-min-cost" label="Min cost ($)">
          <Input
            id="history-min-cost"
            type="number"
            min={0}
            step="any"
            data-testid="history-min-cost"
            defaultValue={filters.minCost}
            key={`cost-${filters.minCost}`}
            onBlur={(event) => apply({ minCost: event.target.value })}
          />
        </FilterField>
        <FilterField id="history-sort" label="Sort">
          <NativeSelect
            id="history-sort"
            data-testid="history-sort"
            value={filters.sort}
            onChange={(event) => apply({ sort: event.target.value })}
          >
            {SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </NativeSelect>
        </FilterField>
      </div>
    </Card>
  );
}
