"use client";

import {
  CalendarClockIcon,
  CircleCheckIcon,
  CircleXIcon,
  EllipsisIcon,
  HistoryIcon,
  KeyboardIcon,
  LayersIcon,
  LoaderCircleIcon,
  MessageSquareIcon,
  NetworkIcon,
  PanelBottomIcon,
  PlayIcon,
  Redo2Icon,
  RocketIcon,
  TagIcon,
  TriangleAlertIcon,
  Undo2Icon,
} from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { memo, type ReactNode, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LogoMark } from "@/components/ui/logo";
import { Separator } from "@/components/ui/separator";
import { ThemeMenuItems, ThemeToggle } from "@/components/ui/theme-toggle";
import { Tooltip } from "@/components/ui/tooltip";
import { TagEditorDialog } from "@/components/workflows/workflow-tags";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { SaveState } from "../store/types";

const SAVE_LABELS: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  conflict: "Conflict",
  error: "Save failed, retrying",
};

const SAVE_CLASSES: Record<SaveState, string> = {
  saved: "text-muted-foreground",
  saving: "text-muted-foreground",
  unsaved: "text-muted-foreground",
  conflict: "text-destructive font-semibold",
  error: "text-destructive font-semibold",
};

/*
 * Responsive rule: everything is in the bar from 1280 px (xl). Below, the secondary actions
 * (history, shortcuts, theme; below 1024 px also auto-layout and schedule) leave the bar for the
 * "More" menu, whose items show only at the widths where the bar hides them. Run, Publish and
 * Schedule stay in the bar at 1024 px.
 */
const WIDE_ONLY = "hidden xl:inline-flex";
const NARROW_ONLY_ITEM = "xl:hidden";
const LARGE_ONLY = "hidden lg:inline-flex";
const SMALL_ONLY_ITEM = "lg:hidden";

/** A toolbar button that opens one of the editor's dialogs (test id `<dialog>-button`). */
function DialogButton({
  dialog,
  title,
  className,
  variant = "outline",
  size = "md",
  children,
}: {
  dialog: "publish" | "schedule" | "shortcuts" | "versions";
  title: string;
  className?: string;
  variant?: "outline" | "ghost";
  size?: "md" | "icon";
  children: ReactNode;
}) {
  const store = useEditorStoreApi();
  return (
    <Tooltip content={title}>
      <Button
        variant={variant}
        size={size}
        className={className}
        data-testid={`${dialog}-button`}
        onClick={() => store.getState().setDialog(dialog)}
        aria-label={size === "icon" ? title : undefined}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

/** An icon-only toolbar button with a tooltip (the tooltip text is its accessible name). */
function IconButton({
  label,
  shortcut,
  testId,
  onClick,
  disabled,
  className,
  children,
}: {
  label: string;
  shortcut?: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip content={label} shortcut={shortcut}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        data-testid={testId}
        onClick={onClick}
        disabled={disabled}
        className={className}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

/** Top bar: mark, name, save state, undo/redo, layout, problems, run panel, history, publish, schedule, run. */
export const EditorToolbar = memo(function EditorToolbar({
  onLayout,
  onRun,
  onSave,
}: {
  onLayout: () => void;
  onRun: () => void;
  onSave: () => void;
}) {
  const store = useEditorStoreApi();
  const router = useRouter();
  const workflowId = useEditorStore((state) => state.workflowId);
  const name = useEditorStore((state) => state.workflowName);
  const saveState = useEditorStore((state) => state.saveState);
  const canUndo = useEditorStore((state) => state.past.length > 0);
  const canRedo = useEditorStore((state) => state.future.length > 0);
  const errorCount = useEditorStore((state) => state.issues.filter((issue) => issue.severity === "error").length);
  const warningCount = useEditorStore((state) => state.issues.length) - errorCount;
  const bottomPanel = useEditorStore((state) => state.bottomPanel);
  const runStatus = useEditorStore((state) => state.runStatus);
  const publishedVersion = useEditorStore((state) => state.publishedVersion);
  const running = runStatus === "running" || runStatus === "queued" || runStatus === "waiting";
  const readOnly = useEditorStore((state) => state.readOnly);
  const viewingVersion = useEditorStore((state) => state.viewingVersion);
  const historyHref = `/workflows/${workflowId}/runs`;
  const [editingTags, setEditingTags] = useState(false);
  const chatPreviewOpen = useEditorStore((state) => state.chatPreviewOpen);
  const toggleBottom = (panel: "run" | "problems") =>
    store.getState().setBottomPanel(bottomPanel === panel ? "none" : panel);

  return (
    <header
      className="flex h-toolbar shrink-0 items-center gap-1.5 border-b border-border bg-card px-2"
      data-testid="editor-toolbar"
    >
      <Tooltip content="All workflows">
        <Link
          href="/workflows"
          aria-label="All workflows"
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-accent"
        >
          <LogoMark />
        </Link>
      </Tooltip>
      <input
        className="h-8 w-40 min-w-0 rounded-md border border-transparent bg-transparent px-2 text-base font-semibold text-foreground outline-none hover:border-border focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 xl:w-64"
        value={name}
        aria-label="Workflow name"
        data-testid="workflow-name"
        readOnly={readOnly}
        onChange={(event) => store.getState().setWorkflowName(event.target.value)}
      />
      {!readOnly && viewingVersion === null && (
        <>
          <IconButton label="Tags" testId="editor-tags-button" onClick={() => setEditingTags(true)}>
            <TagIcon />
          </IconButton>
          {editingTags && (
            <TagEditorDialog open workflowId={workflowId} workflowName={name} onClose={() => setEditingTags(false)} />
          )}
        </>
      )}
      {viewingVersion !== null ? (
        <Badge tone="outline" data-testid="read-only-badge" title="A published version cannot be changed">
          v{viewingVersion} (read-only)
        </Badge>
      ) : readOnly ? (
        <Badge tone="outline" data-testid="read-only-badge" title="Viewers can review workflows and runs">
          Read-only (viewer)
        </Badge>
      ) : (
        <Tooltip content="Drafts save automatically; click to save now" shortcut="Ctrl+S">
          <button
            type="button"
            className={cn(
              "inline-flex h-7 shrink-0 items-center gap-1 rounded-md px-1.5 text-xs whitespace-nowrap hover:bg-accent",
              SAVE_CLASSES[saveState],
            )}
            data-testid="save-state"
            data-state={saveState}
            onClick={onSave}
          >
            {saveState === "saved" && <CircleCheckIcon className="size-3.5 text-success" aria-hidden="true" />}
            {saveState === "saving" && <LoaderCircleIcon className="size-3.5 animate-spin" aria-hidden="true" />}
            {(saveState === "conflict" || saveState === "error") && (
              <CircleXIcon className="size-3.5" aria-hidden="true" />
            )}
            {SAVE_LABELS[saveState]}
          </button>
        </Tooltip>
      )}
      <span className="min-w-2 flex-1" />
      {!readOnly && (
        <>
          <IconButton
            label="Undo"
            shortcut="Ctrl+Z"
            testId="undo"
            disabled={!canUndo}
            onClick={() => store.getState().undo()}
          >
            <Undo2Icon />
          </IconButton>
          <IconButton
            label="Redo"
            shortcut="Ctrl+Shift+Z"
            testId="redo"
            disabled={!canRedo}
            onClick={() => store.getState().redo()}
          >
            <Redo2Icon />
          </IconButton>
          <IconButton
            label="Auto-layout"
            shortcut="Shift+L"
            testId="auto-layout"
            onClick={onLayout}
            className={LARGE_ONLY}
          >
            <NetworkIcon />
          </IconButton>
          <Separator orientation="vertical" className="mx-0.5 !h-5" />
        </>
      )}
      <Tooltip content="Problems: compile errors and warnings">
        <Button
          variant={errorCount > 0 ? "warning" : "ghost"}
          className="gap-1 px-2"
          data-testid="problems-toggle"
          data-error-count={errorCount}
          aria-pressed={bottomPanel === "problems"}
          onClick={() => toggleBottom("problems")}
        >
          <TriangleAlertIcon />
          <span className="sr-only">Problems</span>
          <span className="tabular-nums">{errorCount}</span>
          {warningCount > 0 ? <span className="text-muted-foreground tabular-nums">+{warningCount}</span> : null}
        </Button>
      </Tooltip>
      <IconButton label="Run panel" testId="run-panel-toggle" onClick={() => toggleBottom("run")}>
        <PanelBottomIcon />
      </IconButton>
      <Tooltip content="Run history">
        <Link
          href={historyHref}
          data-testid="history-link"
          aria-label="Run history"
          className={cn(
            "size-8 items-center justify-center rounded-md text-foreground hover:bg-accent [&_svg]:size-4",
            WIDE_ONLY,
          )}
        >
          <HistoryIcon aria-hidden="true" />
        </Link>
      </Tooltip>
      <span
        className="hidden shrink-0 px-1 text-xs whitespace-nowrap text-muted-foreground xl:inline"
        data-testid="published-version"
        data-version={publishedVersion ?? ""}
      >
        {publishedVersion ? `Published v${publishedVersion}` : "Not published"}
      </span>
      <DialogButton
        dialog="versions"
        title="Versions: view, compare, restore, choose the one the endpoint serves"
        variant="ghost"
        size="icon"
      >
        <LayersIcon />
      </DialogButton>
      {!readOnly && (
        <>
          <DialogButton dialog="publish" title="Publish the saved draft as a new immutable version">
            <RocketIcon />
            Publish
          </DialogButton>
          <DialogButton dialog="schedule" title="Run the published version on a cron schedule" className={LARGE_ONLY}>
            <CalendarClockIcon />
            Schedule
          </DialogButton>
        </>
      )}
      <DialogButton dialog="shortcuts" title="Keyboard shortcuts (?)" variant="ghost" size="icon" className={WIDE_ONLY}>
        <KeyboardIcon />
      </DialogButton>
      <ThemeToggle className={WIDE_ONLY} />
      <DropdownMenu>
        <Tooltip content="More">
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              aria-label="More actions"
              data-testid="toolbar-overflow"
              className="xl:hidden"
            >
              <EllipsisIcon />
            </Button>
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent align="end" className="w-56">
          {!readOnly && (
            <>
              <DropdownMenuItem className={SMALL_ONLY_ITEM} onSelect={onLayout} data-testid="overflow-auto-layout">
                <NetworkIcon /> Auto-layout <DropdownMenuShortcut>Shift+L</DropdownMenuShortcut>
              </DropdownMenuItem>
              <DropdownMenuItem
                className={SMALL_ONLY_ITEM}
                onSelect={() => store.getState().setDialog("schedule")}
                data-testid="overflow-schedule"
              >
                <CalendarClockIcon /> Schedule…
              </DropdownMenuItem>
            </>
          )}
          <DropdownMenuItem
            className={NARROW_ONLY_ITEM}
            onSelect={() => router.push(historyHref)}
            data-testid="overflow-history"
          >
            <HistoryIcon /> Run history
          </DropdownMenuItem>
          <DropdownMenuItem
            className={NARROW_ONLY_ITEM}
            onSelect={() => store.getState().setDialog("shortcuts")}
            data-testid="overflow-shortcuts"
          >
            <KeyboardIcon /> Keyboard shortcuts <DropdownMenuShortcut>?</DropdownMenuShortcut>
          </DropdownMenuItem>
          <DropdownMenuSeparator className={NARROW_ONLY_ITEM} />
          <div className="px-2 py-1.5 text-xs text-muted-foreground">
            {publishedVersion ? `Published v${publishedVersion}` : "Not published"}
          </div>
          <div className={NARROW_ONLY_ITEM}>
            <DropdownMenuSeparator />
            <ThemeMenuItems />
          </div>
        </DropdownMenuContent>
      </DropdownMenu>
      {!readOnly && (
        <Tooltip content="Preview: chat with the draft">
          <Button
            variant={chatPreviewOpen ? "secondary" : "ghost"}
            size="icon"
            aria-label="Chat preview"
            aria-pressed={chatPreviewOpen}
            data-testid="chat-preview-toggle"
            onClick={() => store.getState().setChatPreviewOpen(!chatPreviewOpen)}
          >
            <MessageSquareIcon />
          </Button>
        </Tooltip>
      )}
      {!readOnly && (
        <Tooltip content="Run the workflow" shortcut="Ctrl+Enter">
          <Button variant="primary" data-testid="run-button" onClick={onRun} disabled={running} className="ml-0.5">
            {running ? <LoaderCircleIcon className="animate-spin" /> : <PlayIcon className="fill-current" />}
            {running ? "Running…" : "Run"}
          </Button>
        </Tooltip>
      )}
    </header>
  );
});
