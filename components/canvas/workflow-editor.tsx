"use client";

import { ReactFlowProvider } from "@xyflow/react";
import { type ServerCapabilities, ServerCapabilitiesProvider } from "./server-capabilities";
import "@xyflow/react/dist/style.css";
import { XIcon } from "lucide-react";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { BottomPanel } from "./bottom-panel";
import { Canvas } from "./canvas";
import { CommandPalette } from "./command-palette/command-palette";
import { ConflictDialog } from "./dialogs/conflict-dialog";
import { PublishDialog } from "./dialogs/publish-dialog";
import { RunInputsDialog, SingleNodeRunDialog } from "./dialogs/run-dialogs";
import { ScheduleDialog } from "./dialogs/schedule-dialog";
import { ShortcutsDialog } from "./dialogs/shortcuts-dialog";
import { VersionsDialog } from "./dialogs/versions-dialog";
import { useAutosave } from "./hooks/use-autosave";
import { useCompile } from "./hooks/use-compile";
import type { KeepFitted } from "./hooks/use-keep-fitted";
import { useKeyboardShortcuts } from "./hooks/use-keyboard-shortcuts";
import { useRestoreActiveRun } from "./hooks/use-restore-active-run";
import { useRestoreFromQuery } from "./hooks/use-restore-from-query";
import { useRunStream } from "./hooks/use-run-stream";
import { useZoomKeys } from "./hooks/use-zoom-keys";
import { computeAutoLayout } from "./layout/auto-layout";
import { NodePalette } from "./palette/node-palette";
import { ChatPreviewPanel } from "./panels/chat-preview-panel";
import { ConfigPanel } from "./panels/config-panel";
import { ProblemsVariablesTabs } from "./panels/problems-variables-tabs";
import { RunPanel } from "./panels/run-panel";
import { isNoteType } from "./store/document-conversion";
import { EditorStoreProvider, useEditorStore, useEditorStoreApi } from "./store/editor-store-context";
import { EditorToolbar } from "./toolbar/editor-toolbar";
import { VersionBanner } from "./version-banner";

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
  /** True for viewers (see `EditorStoreInit.readOnly`), and while a version is viewed. */
  readOnly?: boolean;
  /** The published version shown read-only instead of the draft (`?version=N`). */
  viewingVersion?: number | null;
  /** Whether the user may edit the draft (false for viewers). */
  canEditDraft?: boolean;
}

const DEFAULT_CAPABILITIES: ServerCapabilities = { pythonSandbox: true };

/** The visual editor of one workflow: its own store, React Flow provider and panels. */
export function WorkflowEditor({
  workflow,
  capabilities = DEFAULT_CAPABILITIES,
}: {
  workflow: EditorWorkflow;
  /** What the server can run (Python code nodes need a code sandbox service). */
  capabilities?: ServerCapabilities;
}) {
  const init = useMemo(
    () => ({
      workflowId: workflow.id,
      workflowName: workflow.name,
      workflowSlug: workflow.slug,
      revision: workflow.draftRevision,
      publishedVersion: workflow.publishedVersion,
      document: workflow.draft,
      readOnly: workflow.readOnly ?? false,
      viewingVersion: workflow.viewingVersion ?? null,
      canEditDraft: workflow.canEditDraft ?? !workflow.readOnly,
    }),
    [workflow],
  );
  return (
    <ServerCapabilitiesProvider value={capabilities}>
      <EditorStoreProvider init={init}>
        <ReactFlowProvider>
          <EditorShell />
        </ReactFlowProvider>
      </EditorStoreProvider>
    </ServerCapabilitiesProvider>
  );
}

const PALETTE_STORAGE_KEY = "trellis.palette-collapsed";

/** The palette's collapsed state, kept across visits (false on the server and the first render). */
function usePaletteCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => setCollapsed(window.localStorage.getItem(PALETTE_STORAGE_KEY) === "true"), []);
  const toggle = useCallback(
    () =>
      setCollapsed((value) => {
        window.localStorage.setItem(PALETTE_STORAGE_KEY, String(!value));
        return !value;
      }),
    [],
  );
  return [collapsed, toggle];
}

/**
 * Layout: toolbar on top; palette (or its icon rail) on the left; the canvas with the resizable
 * bottom panel under it; the config panel on the right only while one node is selected (Escape
 * or a click on the pane closes it by clearing the selection). The palette and the bottom panel
 * re-fit the view when they change the canvas size, as long as the user has not moved it
 * (hooks/use-keep-fitted.ts); the config panel does not, so a clicked node never jumps.
 */
function EditorShell() {
  const store = useEditorStoreApi();
  const bottomPanel = useEditorStore((state) => state.bottomPanel);
  const readOnly = useEditorStore((state) => state.readOnly);
  const chatPreviewOpen = useEditorStore((state) => state.chatPreviewOpen && !state.readOnly);
  // A note is edited on the canvas: selecting one opens no config panel.
  const inspectorOpen = useEditorStore(
    (state) =>
      state.selectedNodeIds.length === 1 &&
      !isNoteType(state.nodes.find((node) => node.id === state.selectedNodeIds[0])?.type),
  );
  const [paletteCollapsed, togglePaletteState] = usePaletteCollapsed();
  const [singleNodeId, setSingleNodeId] = useState<string | null>(null);
  const fitter = useRef<KeepFitted | null>(null);
  const onFitter = useCallback((value: KeepFitted) => {
    fitter.current = value;
  }, []);
  const togglePalette = useCallback(() => {
    fitter.current?.refit();
    togglePaletteState();
  }, [togglePaletteState]);
  // Synchronous on the store's set(), so the re-fit is armed before the panel changes the canvas size.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.bottomPanel !== previous.bottomPanel) fitter.current?.refit();
      }),
    [store],
  );
  const autosave = useAutosave(store);
  useCompile(store);
  useRunStream();
  useRestoreActiveRun(store);
  useRestoreFromQuery(store);

  const layout = useCallback(async () => {
    const { nodes, edges } = store.getState();
    const positions = await computeAutoLayout(nodes, edges);
    store.getState().applyLayout(positions);
    fitter.current?.fit();
  }, [store]);
  const openRun = useCallback(() => store.getState().setDialog("run-inputs"), [store]);
  const handlers = useMemo(
    () => ({ layout: () => void layout(), save: autosave.saveNow, run: openRun }),
    [layout, autosave.saveNow, openRun],
  );
  useKeyboardShortcuts(store, handlers);
  useZoomKeys();
  const closeInspector = useCallback(() => {
    store.getState().clearSelection();
    document.querySelector<HTMLElement>('[data-testid="canvas"] .react-flow__pane')?.focus();
  }, [store]);
  const onInspectorKeyDown = (event: KeyboardEvent) => {
    // Escape inside a field closes the panel too (the global shortcut ignores keys while typing),
    // unless a popup in the panel (a menu, an autocomplete list) takes it first.
    if (event.key === "Escape" && !event.defaultPrevented) closeInspector();
  };

  return (
    <div
      className={
        readOnly ? "editor editor-read-only flex min-h-0 flex-1 flex-col" : "editor flex min-h-0 flex-1 flex-col"
      }
      data-testid="workflow-editor"
    >
      <EditorToolbar onLayout={handlers.layout} onRun={openRun} onSave={autosave.saveNow} />
      <VersionBanner />
      <div className="flex min-h-0 flex-1">
        {!readOnly && <NodePalette collapsed={paletteCollapsed} onToggle={togglePalette} />}
        <div className="flex min-w-0 flex-1 flex-col">
          <div className="flex min-h-0 flex-1">
            <Canvas onFitter={onFitter} />
          </div>
          {bottomPanel !== "none" && (
            <BottomPanel panel={bottomPanel} onClose={() => store.getState().setBottomPanel("none")}>
              {bottomPanel === "run" ? <RunPanel /> : <ProblemsVariablesTabs />}
            </BottomPanel>
          )}
        </div>
        {inspectorOpen && (
          <div
            className="relative flex w-inspector shrink-0 flex-col border-l border-border bg-card"
            data-testid="inspector-column"
            onKeyDown={onInspectorKeyDown}
          >
            <Button
              variant="ghost"
              size="icon-sm"
              className="absolute top-2.5 right-2 z-10"
              aria-label="Close configuration"
              data-testid="inspector-close"
              onClick={closeInspector}
            >
              <XIcon />
            </Button>
            <ConfigPanel onRunNode={setSingleNodeId} />
          </div>
        )}
        {chatPreviewOpen && <ChatPreviewPanel />}
      </div>
      <CommandPalette handlers={handlers} />
      <ShortcutsDialog />
      <VersionsDialog />
      <PublishDialog onSave={autosave.saveNow} />
      {!readOnly && <ScheduleDialog />}
      <RunInputsDialog />
      <SingleNodeRunDialog nodeId={singleNodeId} onClose={() => setSingleNodeId(null)} />
      <ConflictDialog onReload={() => void autosave.reload()} onOverwrite={() => void autosave.overwrite()} />
    </div>
  );
}
