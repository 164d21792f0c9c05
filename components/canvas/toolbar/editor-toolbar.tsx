"use client";

import Link from "next/link";
import { memo, type ReactNode } from "react";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { SaveState } from "../store/types";

const SAVE_LABELS: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  conflict: "Conflict",
  error: "Save failed, retrying",
};

/** A toolbar button that opens one of the editor's dialogs (test id `<dialog>-button`). */
function DialogButton({
  dialog,
  title,
  ghost,
  children,
}: {
  dialog: "publish" | "schedule" | "shortcuts";
  title: string;
  ghost?: boolean;
  children: ReactNode;
}) {
  const store = useEditorStoreApi();
  return (
    <button
      type="button"
      className={ghost ? "button-ghost" : "button"}
      data-testid={`${dialog}-button`}
      onClick={() => store.getState().setDialog(dialog)}
      title={title}
    >
      {children}
    </button>
  );
}

/** Top bar: name, save indicator, undo/redo, layout, problems, help and run. */
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
  return (
    <header className="toolbar" data-testid="editor-toolbar">
      <Link href="/workflows" className="button-ghost">
        ← Workflows
      </Link>
      <input
        className="input toolbar-name"
        value={name}
        aria-label="Workflow name"
        data-testid="workflow-name"
        readOnly={readOnly}
        onChange={(event) => store.getState().setWorkflowName(event.target.value)}
      />
      {readOnly ? (
        <span className="badge" data-testid="read-only-badge" title="Viewers can review workflows and runs">
          Read-only (viewer)
        </span>
      ) : (
        <button
          type="button"
          className={`save-state save-state-${saveState}`}
          data-testid="save-state"
          data-state={saveState}
          onClick={onSave}
          title="Drafts save automatically; click to save now"
        >
          {SAVE_LABELS[saveState]}
        </button>
      )}
      <span className="toolbar-spacer" />
      {!readOnly && (
        <>
          <button
            type="button"
            className="button"
            data-testid="undo"
            disabled={!canUndo}
            onClick={() => store.getState().undo()}
            title="Undo (Ctrl+Z)"
          >
            ↶ Undo
          </button>
          <button
            type="button"
            className="button"
            data-testid="redo"
            disabled={!canRedo}
            onClick={() => store.getState().redo()}
            title="Redo (Ctrl+Shift+Z)"
          >
            ↷ Redo
          </button>
          <button
            type="button"
            className="button"
            data-testid="auto-layout"
            onClick={onLayout}
            title="Auto-layout (Shift+L)"
          >
            Auto-layout
          </button>
        </>
      )}
      <button
        type="button"
        className={errorCount > 0 ? "button button-warning" : "button"}
        data-testid="problems-toggle"
        data-error-count={errorCount}
        onClick={() => store.getState().setBottomPanel(bottomPanel === "problems" ? "none" : "problems")}
      >
        Problems {errorCount}
        {warningCount > 0 ? ` (+${warningCount})` : ""}
      </button>
      <button
        type="button"
        className="button"
        data-testid="run-panel-toggle"
        onClick={() => store.getState().setBottomPanel(bottomPanel === "run" ? "none" : "run")}
      >
        Run panel
      </button>
      <Link href={`/workflows/${workflowId}/runs`} className="button-ghost" data-testid="history-link">
        History
      </Link>
      <span className="muted" data-testid="published-version" data-version={publishedVersion ?? ""}>
        {publishedVersion ? `Published v${publishedVersion}` : "Not published"}
      </span>
      {!readOnly && (
        <>
          <DialogButton dialog="publish" title="Publish the saved draft as a new immutable version">
            Publish
          </DialogButton>
          <DialogButton dialog="schedule" title="Run the published version on a cron schedule">
            Schedule
          </DialogButton>
        </>
      )}
      <DialogButton dialog="shortcuts" title="Keyboard shortcuts (?)" ghost>
        ?
      </DialogButton>
      {!readOnly && (
        <button
          type="button"
          className="button button-primary"
          data-testid="run-button"
          onClick={onRun}
          disabled={running}
        >
          {running ? "Running…" : "▶ Run"}
        </button>
      )}
    </header>
  );
});
