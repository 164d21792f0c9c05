"use client";

import { DownloadIcon, XIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Combobox } from "@/components/ui/combobox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { SearchInput } from "@/components/ui/search-input";
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

/** A filter chosen from a fixed list, "any" first unless `anyLabel` is null. */
function ChoiceField({
  id,
  label,
  value,
  choices,
  anyLabel = "any",
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  choices: readonly { value: string; label: string }[];
  anyLabel?: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <FilterField id={id} label={label}>
      <NativeSelect
        id={id}
        data-testid={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        options={choices}
      >
        {anyLabel !== null && <option value="">{anyLabel}</option>}
      </NativeSelect>
    </FilterField>
  );
}

/** A day (yyyy-mm-dd, the browser's date picker), applied as soon as it changes. */
function DayField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FilterField id={id} label={label}>
      <Input id={id} type="date" data-testid={id} value={value} onChange={(event) => onChange(event.target.value)} />
    </FilterField>
  );
}

/**
 * An "at least" number filter, applied when it loses focus (not on every keystroke); the `key`
 * resets the field when the URL changes the value (a cleared filter, a link opened).
 */
function MinimumField({
  id,
  label,
  value,
  onCommit,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (value: string) => void;
}) {
  return (
    <FilterField id={id} label={label}>
      <Input
        id={id}
        type="number"
        min={0}
        step="any"
        data-testid={id}
        defaultValue={value}
        key={`${id}-${value}`}
        onBlur={(event) => onCommit(event.target.value)}
      />
    </FilterField>
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
          <SearchInput
            wrapperClassName="flex-1"
            aria-label="Search runs"
            data-testid="history-search"
            placeholder='Search inputs, outputs and errors (words or "a phrase")'
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
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
        <ChoiceField
          id="history-status"
          label="Status"
          value={filters.status}
          // A list of statuses from a link (`?status=failed,partial`) is kept as a choice of its own.
          choices={[...RUN_STATUSES, ...(filters.status.includes(",") ? [filters.status] : [])].map((status) => ({
            value: status,
            label: status.replaceAll(",", ", "),
          }))}
          onChange={(value) => apply({ status: value })}
        />
        <ChoiceField
          id="history-trigger"
          label="Trigger"
          value={filters.trigger}
          choices={RUN_TRIGGERS.map((trigger) => ({ value: trigger, label: trigger }))}
          onChange={(value) => apply({ trigger: value })}
        />
        <DayField id="history-from" label="From" value={filters.from} onChange={(value) => apply({ from: value })} />
        <DayField id="history-to" label="To" value={filters.to} onChange={(value) => apply({ to: value })} />
        <MinimumField
          id="history-min-duration"
          label="Min duration (s)"
          value={filters.minDuration}
          onCommit={(value) => apply({ minDuration: value })}
        />
        <MinimumField
          id="history-min-cost"
          label="Min cost ($)"
          value={filters.minCost}
          onCommit={(value) => apply({ minCost: value })}
        />
        <ChoiceField
          id="history-sort"
          label="Sort"
          value={filters.sort}
          choices={SORTS}
          anyLabel={null}
          onChange={(value) => apply({ sort: value })}
        />
      </div>
    </Card>
  );
}
