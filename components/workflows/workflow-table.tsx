"use client";

import {
  CopyIcon,
  DownloadIcon,
  HistoryIcon,
  LayoutTemplateIcon,
  MoreHorizontalIcon,
  TagsIcon,
  Trash2Icon,
} from "lucide-react";
import Link from "next/link";
import { useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { WorkflowTagView } from "@/lib/contracts/workflow-tag";
import type { WorkflowListItem } from "./workflow-list";
import { TagChip } from "./workflow-tags";

/** What a row's actions do; the list owns the requests and the dialogs. */
export interface WorkflowRowHandlers {
  /** Copies a template and opens the copy. */
  onUseTemplate: (workflow: WorkflowListItem) => void;
  /** Opens the tag editor. */
  onEditTags: (workflow: WorkflowListItem) => void;
  onDuplicate: (workflow: WorkflowListItem) => void;
  onExport: (workflow: WorkflowListItem) => void;
  /** Asks to confirm the delete. */
  onDelete: (workflow: WorkflowListItem) => void;
}

/**
 * The secondary actions of a row in a menu ("More actions for <name>"), as in Dify's and n8n's
 * lists: the row keeps its most used actions visible (Runs; "Use as template" on a template).
 * The items keep the test ids the buttons had; they render in a portal, outside the row.
 */
function RowMenu({
  workflow,
  canEdit,
  handlers,
}: {
  workflow: WorkflowListItem;
  canEdit: boolean;
  handlers: WorkflowRowHandlers;
}) {
  // A dialog opened from an item opens once the menu has given focus back to its trigger, so it
  // returns focus there when it closes (opened at once, it would remember the removed item and
  // leave focus on the page).
  const afterClose = useRef<(() => void) | null>(null);
  const openAfterClose = (open: () => void) => {
    afterClose.current = open;
  };
  // Not modal: a modal menu hides the rest of the page from assistive tech while it stays
  // focusable (axe aria-hidden-focus); Escape, Tab and a click outside still close it.
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`More actions for ${workflow.name}`}
          data-testid="workflow-actions"
        >
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        onCloseAutoFocus={() => {
          const open = afterClose.current;
          afterClose.current = null;
          if (open) setTimeout(open, 0);
        }}
      >
        {canEdit && (
          <DropdownMenuItem
            data-testid="edit-workflow-tags"
            onSelect={() => openAfterClose(() => handlers.onEditTags(workflow))}
          >
            <TagsIcon /> Tags…
          </DropdownMenuItem>
        )}
        {canEdit && (
          <DropdownMenuItem data-testid="duplicate-workflow" onSelect={() => handlers.onDuplicate(workflow)}>
            <CopyIcon /> Duplicate
          </DropdownMenuItem>
        )}
        <DropdownMenuItem data-testid="export-workflow" onSelect={() => handlers.onExport(workflow)}>
          <DownloadIcon /> Export JSON
        </DropdownMenuItem>
        {canEdit && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              destructive
              className="[&_svg]:text-destructive"
              data-testid="delete-workflow"
              onSelect={() => openAfterClose(() => handlers.onDelete(workflow))}
            >
              <Trash2Icon /> Delete…
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The workflows as a table: name with its tags and a two-line description, last run, published
 * version, last edit, and the row's actions. Column headers never wrap; long descriptions are
 * clamped (the whole text is the cell's tooltip).
 */
export function WorkflowTable({
  workflows,
  tagsById,
  canEdit,
  handlers,
}: {
  workflows: WorkflowListItem[];
  tagsById: Map<string, WorkflowTagView>;
  canEdit: boolean;
  handlers: WorkflowRowHandlers;
}) {
  return (
    <Table data-testid="workflow-list">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="w-full">Name</TableHead>
          <TableHead>Last run</TableHead>
          <TableHead>Published</TableHead>
          <TableHead>Last edited</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {workflows.length === 0 && (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={5} className="py-8 text-center text-muted-foreground">
              No workflow matches the search or the tag.
            </TableCell>
          </TableRow>
        )}
        {workflows.map((workflow) => (
          <TableRow key={workflow.id} data-testid="workflow-row" data-id={workflow.id} data-name={workflow.name}>
            <TableCell className="max-w-0 min-w-72">
              <div className="flex min-w-0 flex-col gap-1">
                <div className="flex min-w-0 items-center gap-2">
                  <Link
                    href={`/workflows/${workflow.id}`}
                    className="truncate font-medium text-foreground no-underline hover:underline"
                    data-testid="workflow-link"
                    title={workflow.name}
                  >
                    {workflow.name}
                  </Link>
                  {workflow.isTemplate && (
                    <Badge tone="outline" data-testid="template-badge">
                      template
                    </Badge>
                  )}
                </div>
                {workflow.description && (
                  <p className="m-0 line-clamp-2 text-xs text-muted-foreground" title={workflow.description}>
                    {workflow.description}
                  </p>
                )}
                {workflow.tagIds.length > 0 && (
                  <div className="flex flex-wrap gap-1" data-testid="workflow-tags">
                    {workflow.tagIds.flatMap((id) => {
                      const tag = tagsById.get(id);
                      return tag ? [<TagChip key={id} tag={tag} />] : [];
                    })}
                  </div>
                )}
              </div>
            </TableCell>
            <TableCell>
              <StatusBadge status={workflow.lastRunStatus} />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {workflow.publishedVersion ? (
                <Badge tone="primary">v{workflow.publishedVersion}</Badge>
              ) : (
                <span className="text-xs text-muted-foreground">draft</span>
              )}
            </TableCell>
            {/* Relative to now: the server's and the browser's render may fall on either side of a minute. */}
            <TableCell
              className="whitespace-nowrap text-muted-foreground"
              title={workflow.updatedAt}
              suppressHydrationWarning
            >
              {formatRelativeTime(workflow.updatedAt)}
            </TableCell>
            <TableCell className="py-1.5">
              <div className="flex items-center justify-end gap-1">
                {canEdit && workflow.isTemplate && (
                  <Button
                    size="sm"
                    data-testid="use-template"
                    title="Create your own copy of this example and open it"
                    onClick={() => handlers.onUseTemplate(workflow)}
                  >
                    <LayoutTemplateIcon /> Use as template
                  </Button>
                )}
                <Button variant="ghost" size="sm" asChild>
                  <Link
                    href={`/workflows/${workflow.id}/runs`}
                    className="no-underline"
                    aria-label={`Runs of ${workflow.name}`}
                    data-testid="workflow-runs-link"
                  >
                    <HistoryIcon /> Runs
                  </Link>
                </Button>
                <RowMenu workflow={workflow} canEdit={canEdit} handlers={handlers} />
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
