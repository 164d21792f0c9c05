"use client";

import { ChevronDownIcon, FileJsonIcon, LayoutTemplateIcon, PlusIcon, UploadIcon, WorkflowIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Dialog } from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { WorkflowTagView } from "@/lib/contracts/workflow-tag";
import { ImportDialog } from "./import-dialog";
import { ManageTagsDialog } from "./manage-tags-dialog";
import { TemplateGallery } from "./template-gallery";
import { buildWorkflowFile, type ImportFieldError, parseWorkflowFile } from "./workflow-file";
import { WorkflowListFilters } from "./workflow-list-filters";
import { filterAndSortWorkflows, type WorkflowSort } from "./workflow-list-order";
import { type WorkflowRowHandlers, WorkflowTable } from "./workflow-table";
import { TagEditorDialog } from "./workflow-tags";

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

/**
 * The workflow list page's content: its header actions (import, templates, new workflow), search,
 * sort and tag filter, the table, and the dialogs. The app header carries the sections (runs,
 * evaluations, settings, account), so the list does not repeat them.
 */
export function WorkflowList({
  workflows,
  tags = [],
  initialSearch = "",
  initialTag = null,
  canEdit = true,
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
  useToastMessage(message);
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

  const handlers: WorkflowRowHandlers = {
    onUseTemplate: (workflow) => void duplicate(workflow, true),
    onEditTags: setTagging,
    onDuplicate: (workflow) => void duplicate(workflow),
    onExport: (workflow) => void exportWorkflow(workflow),
    onDelete: setDeleting,
  };

  return (
    <>
      <PageHeader
        title="Workflows"
        description="Build, run and publish LLM agent workflows."
        actions={
          canEdit ? (
            <>
              <div className="flex items-center">
                <Button
                  className="rounded-r-none"
                  data-testid="import-dialog-button"
                  title="Import a Dify DSL file or a Trellis export, with a report before saving"
                  onClick={() => setImporting(true)}
                >
                  <UploadIcon /> Import…
                </Button>
                {/* Not modal: a modal menu hides the rest of the page from assistive tech while it stays
                    focusable (axe aria-hidden-focus); Escape, Tab and a click outside still close it. */}
                <DropdownMenu modal={false}>
                  <DropdownMenuTrigger asChild>
                    <Button
                      size="icon"
                      className="-ml-px rounded-l-none"
                      aria-label="More ways to import"
                      data-testid="import-menu"
                    >
                      <ChevronDownIcon />
                    </Button>
                  </DropdownMenuTrigger>
                  <DropdownMenuContent align="end">
                    <DropdownMenuItem data-testid="import-button" onSelect={() => fileInput.current?.click()}>
                      <FileJsonIcon /> Trellis JSON, without a report
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
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
              </div>
              <Button data-testid="templates-button" onClick={() => setBrowsingTemplates(true)}>
                <LayoutTemplateIcon /> Templates
              </Button>
              <Button variant="primary" data-testid="new-workflow" onClick={() => setCreating(true)}>
                <PlusIcon /> New workflow
              </Button>
            </>
          ) : (
            <Badge tone="neutral" data-testid="read-only-badge" title="Viewers can review workflows and runs">
              Read-only (viewer)
            </Badge>
          )
        }
      />
      {message && (
        <p className="sr-only" data-testid="list-message">
          {message}
        </p>
      )}
      {importErrors.length > 0 && (
        <Alert tone="destructive" title="The file could not be imported:" data-testid="import-errors">
          <ul>
            {importErrors.map((error) => (
              <li key={`${error.field}-${error.message}`} data-testid="import-error" data-field={error.field}>
                <code>{error.field}</code>: {error.message}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {workflows.length > 0 && (
        <WorkflowListFilters
          search={search}
          onSearch={setSearch}
          sort={sort}
          onSort={setSort}
          tags={tags}
          tagFilter={tagFilter}
          onTagFilter={setTagFilter}
          onManageTags={canEdit && tags.length > 0 ? () => setManagingTags(true) : undefined}
          count={filtered ? { shown: shown.length, total: workflows.length } : null}
        />
      )}
      {workflows.length === 0 ? (
        <EmptyState
          data-testid="workflow-list-empty"
          icon={<WorkflowIcon />}
          title="No workflows yet"
          description={
            canEdit
              ? "Create one, start from a template, or import a Dify DSL file or a Trellis export."
              : "Nobody has created a workflow in this workspace yet."
          }
        />
      ) : (
        <WorkflowTable workflows={shown} tagsById={tagsById} canEdit={canEdit} handlers={handlers} />
      )}
      <Dialog
        open={creating}
        title="New workflow"
        onClose={() => setCreating(false)}
        testId="new-workflow-dialog"
        footer={
          <Button variant="primary" data-testid="create-workflow" onClick={() => void create()}>
            Create
          </Button>
        }
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="new-workflow-name">Name</Label>
          <Input
            id="new-workflow-name"
            autoFocus
            value={newName}
            data-testid="new-workflow-name"
            onChange={(event) => setNewName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") void create();
            }}
          />
        </div>
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
        <p className="m-0">“{deleting?.name}” and all its versions and runs will be deleted. This cannot be undone.</p>
      </ConfirmDeleteDialog>
    </>
  );
}
