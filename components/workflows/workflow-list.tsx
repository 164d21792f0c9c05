"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { SettingsLink } from "@/components/settings/settings-link";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { Dialog } from "@/components/ui/dialog";
import { formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { WorkflowTagView } from "@/lib/contracts/workflow-tag";
import { ImportDialog } from "./import-dialog";
import { ManageTagsDialog } from "./manage-tags-dialog";
import { TemplateGallery } from "./template-gallery";
import { buildWorkflowFile, type ImportFieldError, parseWorkflowFile } from "./workflow-file";
import { filterAndSortWorkflows, type WorkflowSort } from "./workflow-list-order";
import { TagChip, TagEditorDialog } from "./workflow-tags";

/** A row of the list, serialized by the server page. */
export interface WorkflowListItem {
  /** Workflow id. */
  id: string;
  /** Name. */
  name: string;
  /** Description. */
  description: string;
  /** ISO time of the last draft change. */
  updatedAt: string;
  /** Last run status, if any. */
  lastRunStatus: string | null;
  /** Highest published version, if any. */
  publishedVersion: number | null;
  /** A seeded example offered as a template. */
  isTemplate: boolean;
  /** Ids of its tags (see the list's `tags`). */
  tagIds: string[];
}

/**
 * Keeps the search and the tag filter in the address (`?q=…&tag=…`) so a filtered list can be
 * shared or reloaded. `replaceState` rather than the router: the list is already loaded and a
 * filter change must not re-render the server page.
 */
function writeFiltersToUrl(search: string, tag: string | null): void {
  const url = new URL(window.location.href);
  if (search) url.searchParams.set("q", search);
  else url.searchParams.delete("q");
  if (tag) url.searchParams.set("tag", tag);
  else url.searchParams.delete("tag");
  window.history.replaceState(window.history.state, "", url);
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string; field?: string } };
    return `${body.error?.message ?? response.statusText}${body.error?.field ? ` (${body.error.field})` : ""}`;
  } catch {
    return `Request failed (${response.status})`;
  }
}

/** The workflow list with create, duplicate, delete (confirmed), import and export. */
export function WorkflowList({
  workflows,
  tags = [],
  initialSearch = "",
  initialTag = null,
  canEdit = true,
  canManage = true,
}: {
  workflows: WorkflowListItem[];
  /** The workspace's tags. */
  tags?: WorkflowTagView[];
  /** The search from the address (`?q=`). */
  initialSearch?: string;
  /** The tag filter from the address (`?tag=<name>`). */
  initialTag?: string | null;
  /** False for viewers: no create, import, duplicate or delete. */
  canEdit?: boolean;
  /** True for owners and admins, who see the settings link. */
  canManage?: boolean;
}) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [newName, setNewName] = useState("");
  const [deleting, setDeleting] = useState<WorkflowListItem | null>(null);
  const [importErrors, setImportErrors] = useState<ImportFieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [browsingTemplates, setBrowsingTemplates] = useState(false);
  const [search, setSearchState] = useState(initialSearch);
  const [tagFilter, setTagFilterState] = useState<string | null>(initialTag);
  const [sort, setSort] = useState<WorkflowSort>("updated");
  const [tagging, setTagging] = useState<WorkflowListItem | null>(null);
  const [managingTags, setManagingTags] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const tagsById = useMemo(() => new Map(tags.map((tag) => [tag.id, tag])), [tags]);
  const filterTagId = tags.find((tag) => tag.name === tagFilter)?.id;
  const shown = useMemo(
    () => filterAndSortWorkflows(workflows, search, sort, tagFilter === null ? undefined : (filterTagId ?? null)),
    [workflows, search, sort, tagFilter, filterTagId],
  );
  const filtered = search !== "" || tagFilter !== null;
  const setSearch = (value: string) => {
    setSearchState(value);
    writeFiltersToUrl(value, tagFilter);
  };
  const setTagFilter = (value: string | null) => {
    setTagFilterState(value);
    writeFiltersToUrl(search, value);
  };

  const create = async () => {
    const response = await fetch("/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: newName.trim() || "Untitled workflow" }),
    });
    if (!response.ok) {
      setMessage(await errorMessage(response));
      return;
    }
    const { id } = (await response.json()) as { id: string };
    router.push(`/workflows/${id}`);
  };

  /** Copies a workflow; a template's copy opens in the editor at once. */
  const duplicate = async (workflow: WorkflowListItem, openCopy = false) => {
    const response = await fetch("/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ duplicateOf: workflow.id }),
    });
    if (response.ok && openCopy) {
      const { id } = (await response.json()) as { id: string };
      router.push(`/workflows/${id}`);
      return;
    }
    setMessage(response.ok ? `Duplicated “${workflow.name}”.` : await errorMessage(response));
    router.refresh();
  };

  const remove = async (workflow: WorkflowListItem) => {
    const response = await fetch(`/api/workflows/${workflow.id}`, { method: "DELETE" });
    setDeleting(null);
    setMessage(response.ok ? `Deleted “${workflow.name}”.` : await errorMessage(response));
    router.refresh();
  };

  const exportWorkflow = async (workflow: WorkflowListItem) => {
    const response = await fetch(`/api/workflows/${workflow.id}`);
    if (!response.ok) {
      setMessage(await errorMessage(response));
      return;
    }
    const { workflow: full } = (await response.json()) as {
      workflow: { name: string; description: string; draft: Parameters<typeof buildWorkflowFile>[2] };
    };
    const file = buildWorkflowFile(full.name, full.description, full.draft);
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: "application/json" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${full.name.replace(/[^a-zA-Z0-9-_]+/g, "-").toLowerCase() || "workflow"}.json`;
    link.click();
    URL.revokeObjectURL(url);
  };

  const importFile = async (file: File) => {
    setImportErrors([]);
    const parsed = parseWorkflowFile(await file.text(), file.name.replace(/\.json$/i, ""));
    if (!parsed.ok) {
      setImportErrors(parsed.errors);
      return;
    }
    const response = await fetch("/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: parsed.file.name,
        description: parsed.file.description,
        draft: parsed.file.document,
      }),
    });
    if (!response.ok) {
      setImportErrors([{ field: "(server)", message: await errorMessage(response) }]);
      return;
    }
    setMessage(`Imported “${parsed.file.name}”.`);
    router.refresh();
  };

  return (
    <div className="workflow-list-page">
      <header className="page-header">
        <h1>Workflows</h1>
        <div className="row">
          <Link href="/runs" className="button" data-testid="all-runs-link">
            Runs
          </Link>
          <Link href="/evaluations" className="button" data-testid="evaluations-link">
            Evaluations
          </Link>
          {canManage && <SettingsLink />}
          <Link href="/account" className="button-ghost" data-testid="account-link">
            Account
          </Link>
          {!canEdit && (
            <span className="badge" data-testid="read-only-badge" title="Viewers can review workflows and runs">
              Read-only (viewer)
            </span>
          )}
          {canEdit && (
            <>
              <button
                type="button"
                className="button"
                data-testid="import-dialog-button"
                title="Import a Dify DSL file or a Trellis export, with a report before saving"
                onClick={() => setImporting(true)}
              >
                Import…
              </button>
              <button
                type="button"
                className="button"
                data-testid="import-button"
                onClick={() => fileInput.current?.click()}
              >
                Import JSON
              </button>
              <input
                ref={fileInput}
                type="file"
                accept="application/json,.json"
                hidden
                data-testid="import-file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = "";
                  if (file) void importFile(file);
                }}
              />
              <button
                type="button"
                className="button"
                data-testid="templates-button"
                onClick={() => setBrowsingTemplates(true)}
              >
                Templates
              </button>
              <button
                type="button"
                className="button button-primary"
                data-testid="new-workflow"
                onClick={() => setCreating(true)}
              >
                New workflow
              </button>
            </>
          )}
        </div>
      </header>
      {message && (
        <p className="notice" data-testid="list-message">
          {message}
        </p>
      )}
      {importErrors.length > 0 && (
        <div className="error-box" data-testid="import-errors">
          <b>The file could not be imported:</b>
          <ul>
            {importErrors.map((error) => (
              <li key={`${error.field}-${error.message}`} data-testid="import-error" data-field={error.field}>
                <code>{error.field}</code>: {error.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {workflows.length > 0 && (
        <search className="flex flex-wrap items-center gap-2">
          <input
            type="search"
            className="input max-w-xs"
            placeholder="Search workflows"
            aria-label="Search workflows by name or description"
            data-testid="workflow-search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <label className="muted text-sm" htmlFor="workflow-sort">
            Sort by
          </label>
          <select
            id="workflow-sort"
            className="input w-auto"
            data-testid="workflow-sort"
            value={sort}
            onChange={(event) => setSort(event.target.value as WorkflowSort)}
          >
            <option value="updated">Last edited</option>
            <option value="name">Name</option>
            <option value="published">Published version</option>
          </select>
          {(tags.length > 0 || tagFilter !== null) && (
            <>
              <label className="muted text-sm" htmlFor="workflow-tag-filter">
                Tag
              </label>
              <select
                id="workflow-tag-filter"
                className="input w-auto"
                data-testid="workflow-tag-filter"
                value={tagFilter ?? ""}
                onChange={(event) => setTagFilter(event.target.value || null)}
              >
                <option value="">All tags</option>
                {tags.map((tag) => (
                  <option key={tag.id} value={tag.name}>
                    {tag.name} ({tag.workflowCount})
                  </option>
                ))}
                {tagFilter !== null && filterTagId === undefined && <option value={tagFilter}>{tagFilter}</option>}
              </select>
              {canEdit && tags.length > 0 && (
                <button
                  type="button"
                  className="button-ghost"
                  data-testid="manage-tags-button"
                  onClick={() => setManagingTags(true)}
                >
                  Manage tags
                </button>
              )}
            </>
          )}
          {filtered && (
            <span className="muted text-sm" data-testid="workflow-search-count">
              {shown.length} of {workflows.length}
            </span>
          )}
        </search>
      )}
      {workflows.length === 0 ? (
        <p className="muted" data-testid="workflow-list-empty">
          No workflows yet. Create one or import a JSON file.
        </p>
      ) : (
        <table className="table" data-testid="workflow-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Last edited</th>
              <th>Last run</th>
              <th>Published</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {shown.map((workflow) => (
              <tr key={workflow.id} data-testid="workflow-row" data-id={workflow.id} data-name={workflow.name}>
                <td>
                  <Link href={`/workflows/${workflow.id}`} data-testid="workflow-link">
                    {workflow.name}
                  </Link>
                  {workflow.isTemplate && (
                    <span className="badge" data-testid="template-badge">
                      template
                    </span>
                  )}
                  {workflow.description && <div className="muted">{workflow.description}</div>}
                  {workflow.tagIds.length > 0 && (
                    <div className="mt-1 flex flex-wrap gap-1" data-testid="workflow-tags">
                      {workflow.tagIds.flatMap((id) => {
                        const tag = tagsById.get(id);
                        return tag ? [<TagChip key={id} tag={tag} />] : [];
                      })}
                    </div>
                  )}
                </td>
                <td title={workflow.updatedAt}>{formatRelativeTime(workflow.updatedAt)}</td>
                <td>
                  <StatusBadge status={workflow.lastRunStatus} />
                </td>
                <td>
                  {workflow.publishedVersion ? `v${workflow.publishedVersion}` : <span className="muted">draft</span>}
                </td>
                <td className="row-actions">
                  <Link href={`/workflows/${workflow.id}/runs`} className="button-ghost">
                    Runs
                  </Link>
                  {canEdit && workflow.isTemplate && (
                    <button
                      type="button"
                      className="button"
                      data-testid="use-template"
                      title="Create your own copy of this example and open it"
                      onClick={() => void duplicate(workflow, true)}
                    >
                      Use as template
                    </button>
                  )}
                  {canEdit && (
                    <button
                      type="button"
                      className="button-ghost"
                      data-testid="edit-workflow-tags"
                      aria-label={`Tags of ${workflow.name}`}
                      onClick={() => setTagging(workflow)}
                    >
                      Tags
                    </button>
                  )}
                  {canEdit && (
                    <button
                      type="button"
                      className="button-ghost"
                      data-testid="duplicate-workflow"
                      onClick={() => void duplicate(workflow)}
                    >
                      Duplicate
                    </button>
                  )}
                  <button
                    type="button"
                    className="button-ghost"
                    data-testid="export-workflow"
                    onClick={() => void exportWorkflow(workflow)}
                  >
                    Export
                  </button>
                  {canEdit && <DeleteButton testId="delete-workflow" onClick={() => setDeleting(workflow)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog
        open={creating}
        title="New workflow"
        onClose={() => setCreating(false)}
        testId="new-workflow-dialog"
        footer={
          <button
            type="button"
            className="button button-primary"
            data-testid="create-workflow"
            onClick={() => void create()}
          >
            Create
          </button>
        }
      >
        <label className="field-label" htmlFor="new-workflow-name">
          Name
        </label>
        <input
          id="new-workflow-name"
          className="input"
          autoFocus
          value={newName}
          data-testid="new-workflow-name"
          onChange={(event) => setNewName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") void create();
          }}
        />
      </Dialog>
      {tagging && (
        <TagEditorDialog
          open
          workflowId={tagging.id}
          workflowName={tagging.name}
          onClose={() => setTagging(null)}
          onSaved={() => {
            setMessage(`Tags of “${tagging.name}” saved.`);
            router.refresh();
          }}
        />
      )}
      <ManageTagsDialog
        open={managingTags}
        tags={tags}
        onClose={() => setManagingTags(false)}
        onChanged={({ from, to }) => {
          if (tagFilter !== from) {
            router.refresh();
            return;
          }
          // A filter on the renamed tag follows it; one on a deleted tag is dropped. Through the
          // router, so the server data it refreshes comes back for the new address (a refresh
          // after replaceState re-applied the old one).
          setTagFilterState(to);
          const url = new URL(window.location.href);
          if (to) url.searchParams.set("tag", to);
          else url.searchParams.delete("tag");
          router.replace(`${url.pathname}${url.search}`, { scroll: false });
        }}
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <TemplateGallery open={browsingTemplates} onClose={() => setBrowsingTemplates(false)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete workflow?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
        testId="delete-dialog"
        confirmTestId="confirm-delete"
      >
        <p>“{deleting?.name}” and all its versions and runs will be deleted. This cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
