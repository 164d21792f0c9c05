"use client";

import { ReactFlowProvider } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useMemo, useState } from "react";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { Canvas } from "./canvas";
import { CommandPalette } from "./command-palette/command-palette";
import { ConflictDialog } from "./dialogs/conflict-dialog";
import { PublishDialog } from "./dialogs/publish-dialog";
import { RunInputsDialog, SingleNodeRunDialog } from "./dialogs/run-dialogs";
import { ScheduleDialog } from "./dialogs/schedule-dialog";
import { ShortcutsDialog } from "./dialogs/shortcuts-dialog";
import { useAutosave } from "./hooks/use-autosave";
import { useCompile } from "./hooks/use-compile";
import { useKeyboardShortcuts } from "./hooks/use-keyboard-shortcuts";
import { useRestoreActiveRun } from "./hooks/use-restore-active-run";
import { useRunStream } from "./hooks/use-run-stream";
import { useZoomKeys } from "./hooks/use-zoom-keys";
import { computeAutoLayout } from "./layout/auto-layout";
import { NodePalette } from "./palette/node-palette";
import { ConfigPanel } from "./panels/config-panel";
import { ProblemsPanel } from "./panels/problems-panel";
import { RunPanel } from "./panels/run-panel";
import { EditorStoreProvider, useEditorStore, useEditorStoreApi } from "./store/editor-store-context";
import { EditorToolbar } from "./toolbar/editor-toolbar";

/** What the editor page passes in (plain JSON from the server component). */
export interface EditorWorkflow {
  /** Workflow id. */
  id: string;
  /** Name. */
  name: string;
  /** URL name of the published endpoint. */
  slug?: string;
  /** Draft document. */
  draft: WorkflowDocument;
  /** Draft revision for optimistic concurrency. */
  draftRevision: number;
  /** Highest published version, null when never published. */
  publishedVersion: number | null;
  /** True for viewers (see `EditorStoreInit.readOnly`). */
  readOnly?: boolean;
}

/** The visual editor of one workflow: its own store, React Flow provider and panels. */
export function WorkflowEditor({ workflow }: { workflow: EditorWorkflow }) {
  const init = useMemo(
    () => ({
      workflowId: workflow.id,
      workflowName: workflow.name,
      workflowSlug: workflow.slug,
      revision: workflow.draftRevision,
      publishedVersion: workflow.publishedVersion,
      document: workflow.draft,
      readOnly: workflow.readOnly ?? false,
    }),
    [workflow],
  );
  return (
    <EditorStoreProvider init={init}>
      <ReactFlowProvider>
        <EditorShell />
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}

function EditorShell() {
  const store = useEditorStoreApi();
  const bottomPanel = useEditorStore((state) => state.bottomPanel);
  const readOnly = useEditorStore((state) => state.readOnly);
  const [singleNodeId, setSingleNodeId] = useState<string | null>(null);
  const autosave = useAutosave(store);
  useCompile(store);
  useRunStream();
  useRestoreActiveRun(store);

  const layout = useCallback(async () => {
    const { nodes, edges } = store.getState();
    const positions = await computeAutoLayout(nodes, edges);
    store.getState().applyLayout(positions);
  }, [store]);
  const openRun = useCallback(() => store.getState().setDialog("run-inputs"), [store]);
  const handlers = useMemo(
    () => ({ layout: () => void layout(), save: autosave.saveNow, run: openRun }),
    [layout, autosave.saveNow, openRun],
  );
  useKeyboardShortcuts(store, handlers);
  useZoomKeys();

  return (
    <div className={readOnly ? "editor editor-read-only" : "editor"} data-testid="workflow-editor">
      <EditorToolbar onLayout={handlers.layout} onRun={openRun} onSave={autosave.saveNow} />
      <div className="editor-body">
        {!readOnly && <NodePalette />}
        <Canvas />
        <ConfigPanel onRunNode={setSingleNodeId} />
      </div>
      {bottomPanel !== "none" && (
        <section className="bottom-panel" data-testid={`bottom-panel-${bottomPanel}`}>
          <button
            type="button"
            className="button-ghost bottom-panel-close"
            aria-label="Close panel"
            onClick={() => store.getState().setBottomPanel("none")}
          >
            ×
          </button>
          {bottomPanel === "run" ? <RunPanel /> : <ProblemsPanel />}
        </section>
      )}
      <CommandPalette handlers={handlers} />
      <ShortcutsDialog />
      <PublishDialog onSave={autosave.saveNow} />
      {!readOnly && <ScheduleDialog />}
      <RunInputsDialog />
      <SingleNodeRunDialog nodeId={singleNodeId} onClose={() => setSingleNodeId(null)} />
      <ConflictDialog onReload={() => void autosave.reload()} onOverwrite={() => void autosave.overwrite()} />
    </div>
  );
}
