import type { Connection, Edge, EdgeChange, Node, NodeChange, XYPosition } from "@xyflow/react";
import type { RunEvent } from "@/lib/runs/run-events";
import type { NodeRunStatus, RunStatus } from "@/lib/runs/run-status";
import type { WorkflowDocument } from "@/lib/workflow/document";

/** `node.data` on the canvas: exactly the document's `data` (title plus config). */
export type CanvasNodeData = { title: string } & Record<string, unknown>;

/** A React Flow node as held by the editor store. `type` is the workflow node type. */
export type CanvasNode = Node<CanvasNodeData>;

/** A React Flow edge as held by the editor store. */
export type CanvasEdge = Edge;

/** A compile issue as the canvas shows it (mirrors the compiler's issue shape). */
export interface CanvasIssue {
  /** Stable issue code, e.g. `unknown_variable`. */
  code: string;
  /** `error` blocks a run; `warning` does not. */
  severity: "error" | "warning";
  /** Node the issue belongs to, when any. */
  nodeId?: string;
  /** Edge the issue belongs to, when any. */
  edgeId?: string;
  /** Path inside the node's data, e.g. `["prompt"]`. */
  path: (string | number)[];
  /** Human explanation. */
  message: string;
}

/** A serializable copy of part of a graph: what copy puts on the clipboard. */
export interface GraphFragment {
  /** Marker so that pasting arbitrary JSON is ignored. */
  kind: "trellis-fragment";
  /** Nodes in document form (positions of top-level nodes are absolute). */
  nodes: WorkflowDocument["nodes"];
  /** Edges between the copied nodes only. */
  edges: WorkflowDocument["edges"];
}

/** Nodes and edges at one point in time; history entries share unchanged objects. */
export interface GraphSnapshot {
  /** Nodes. */
  nodes: CanvasNode[];
  /** Edges. */
  edges: CanvasEdge[];
}

/** The document slice: the graph and the actions that change it. Every action is one undo step. */
export interface DocumentSlice {
  /** Canvas nodes; parents always precede their children. */
  nodes: CanvasNode[];
  /** Canvas edges. */
  edges: CanvasEdge[];
  /** Incremented by every change that must be saved; selection and measuring do not count. */
  changeCount: number;
  /** True while the user drags nodes: compile waits until the drag ends. */
  isDragging: boolean;
  /** Replaces the graph (load, reload after a conflict); clears history. */
  loadDocument(document: WorkflowDocument): void;
  /** Replaces the graph as one undoable edit (restoring a published version into the draft). */
  replaceDocument(document: WorkflowDocument): void;
  /** React Flow change handler (positions, dimensions, selection). */
  onNodesChange(changes: NodeChange<CanvasNode>[]): void;
  /** React Flow change handler (edge selection). */
  onEdgesChange(changes: EdgeChange<CanvasEdge>[]): void;
  /** Adds a node of a type at a flow position, inside `parentId` when given (position relative to it). */
  addNode(type: string, position: XYPosition, parentId?: string): string;
  /** Adds a node to the right of `sourceId` and connects `sourceHandle` to it, in one step. */
  addNodeAfter(sourceId: string, sourceHandle: string | null, type: string): string;
  /** Adds an edge (validity is checked by the canvas before). */
  connect(connection: Connection): void;
  /** Merges `patch` into a node's data; consecutive patches with the same `coalesceKey` form one undo step. */
  updateNodeConfig(id: string, patch: Record<string, unknown>, options?: { coalesceKey?: string }): void;
  /** Removes nodes (with container bodies) and edges, plus edges attached to removed nodes. */
  removeElements(nodeIds: string[], edgeIds: string[]): void;
  /** Removes the current selection. */
  removeSelection(): void;
  /** Copies the selection into a fragment (containers bring their bodies). */
  copySelection(): GraphFragment | null;
  /** Inserts a fragment with fresh ids, offset, selected; one undo step. */
  pasteFragment(fragment: GraphFragment, offset?: XYPosition): void;
  /** Duplicates the selection next to itself. */
  duplicateSelection(): void;
  /** Moves nodes to computed positions (auto-layout); sizes are for containers. */
  applyLayout(positions: Record<string, XYPosition & { width?: number; height?: number }>): void;
  /** Marks the start of a drag or resize gesture: one undo step for the whole gesture. */
  beginGesture(): void;
  /** Marks the end of a drag gesture (reparents nodes dropped onto a container). */
  endGesture(): void;
}

/** The selection slice. Selection lives on the nodes (`selected`), these are derived ids. */
export interface SelectionSlice {
  /** Ids of selected nodes, in canvas order. */
  selectedNodeIds: string[];
  /** Ids of selected edges. */
  selectedEdgeIds: string[];
  /** Selects exactly these nodes. */
  selectNodes(ids: string[]): void;
  /** Clears the selection. */
  clearSelection(): void;
}

/** The history slice: snapshot-based undo with grouping. */
export interface HistorySlice {
  /** Earlier graphs, most recent last. */
  past: GraphSnapshot[];
  /** Undone graphs, most recent last. */
  future: GraphSnapshot[];
  /** Coalescing key of the last recorded step and when it was recorded. */
  lastStep: { key: string; at: number } | null;
  /** Saves the current graph as an undo step before a change; `key` groups consecutive edits. */
  recordStep(key?: string): void;
  /** Restores the previous graph. */
  undo(): void;
  /** Re-applies an undone graph. */
  redo(): void;
}

/** Live status of one node during or after a run (the latest attempt / iteration item). */
export interface NodeRunState {
  /** Node status. */
  status: NodeRunStatus;
  /** Epoch ms of the first start. */
  startedAt: number;
  /** Total duration when finished. */
  durationMs?: number;
  /** Input plus output tokens summed over attempts and items. */
  tokens: number;
  /** Number of iteration items finished, for containers and their bodies. */
  itemsDone?: number;
  /** Total iteration items, for containers. */
  itemCount?: number;
}

/** A pending human-input question. */
export interface RunWaiting {
  /** Node asking. */
  nodeId: string;
  /** Question text. */
  prompt: string;
  /** Form fields as the engine describes them. */
  fields: unknown[];
}

/** The run slice: state of the run started from this editor, fed by RunEvents. */
export interface RunSlice {
  /** Current run id, null before the first run. */
  runId: string | null;
  /** Whole-run status. */
  runStatus: RunStatus | null;
  /** Every event received so far, in seq order. */
  runEvents: RunEvent[];
  /** Last seq applied (for SSE resume and de-duplication). */
  lastSeq: number;
  /** Per-node live status. */
  nodeRunStates: Record<string, NodeRunState>;
  /** Set while the run waits for a human answer. */
  waiting: RunWaiting | null;
  /** Starts tracking a new run. */
  startRun(runId: string): void;
  /** Applies one event (ignored when already applied). */
  applyRunEvent(event: RunEvent): void;
  /** Forgets the run (statuses disappear from the canvas). */
  clearRun(): void;
}

/** Save indicator states. */
export type SaveState = "saved" | "saving" | "unsaved" | "conflict" | "error";

/** A node run chosen in the timeline for the inspector. */
export interface InspectorTarget {
  /** Node id. */
  nodeId: string;
  /** Iteration path of the node run. */
  iterationPath: number[];
  /** Attempt. */
  attempt: number;
}

/** The UI slice: panels, dialogs, compile results and save state. Never saved into the document. */
export interface UiSlice {
  /** Workflow id being edited. */
  workflowId: string;
  /** Workflow name. */
  workflowName: string;
  /** URL name of the published endpoint; empty when unknown. */
  workflowSlug: string;
  /** Server revision the current draft is based on. */
  revision: number;
  /** Highest published version, null when never published. */
  publishedVersion: number | null;
  /** True for viewers: nothing can be changed, saved, run or published (the server refuses too). */
  readOnly: boolean;
  /** The published version shown read-only (`?version=N`); null while editing the draft. */
  viewingVersion: number | null;
  /** Whether the user may edit the draft (false for viewers), even while a version is shown read-only. */
  canEditDraft: boolean;
  /** Save indicator. */
  saveState: SaveState;
  /** Revision held by the server when a save was rejected. */
  conflictRevision: number | null;
  /** Last compile issues. */
  issues: CanvasIssue[];
  /** Issues per node id (arrays keep their identity when unchanged, so nodes do not re-render). */
  issuesByNode: Record<string, CanvasIssue[]>;
  /** Which bottom panel is open. */
  bottomPanel: "none" | "run" | "problems" | "variables";
  /** Open dialog. */
  dialog: "none" | "shortcuts" | "run-inputs" | "single-node-run" | "publish" | "schedule" | "versions";
  /** Node run shown in the inspector. */
  inspectorTarget: InspectorTarget | null;
  /** A config field to focus after a problem was clicked. */
  focusRequest: { nodeId: string; path: (string | number)[]; token: number } | null;
  /**
   * The command palette (Ctrl/⌘+K): closed, or open; `addAt` (flow position) when it was opened
   * to add a node at a point (the pane's context menu), so a picked type lands there.
   */
  commandPalette:
    | { open: false }
    | {
        open: true;
        addAt?: { x: number; y: number };
        /** Opened by a node's "+" button: the picked type is added after that handle and connected. */
        addAfter?: { nodeId: string; handleId: string };
      };
  /** Opens or closes the command palette. */
  setCommandPalette(state: UiSlice["commandPalette"]): void;
  /** Sets compile issues. */
  setIssues(issues: CanvasIssue[]): void;
  /** Sets the save state, optionally with the new revision. */
  setSaveState(state: SaveState, revision?: number, conflictRevision?: number | null): void;
  /** Opens a bottom panel. */
  setBottomPanel(panel: UiSlice["bottomPanel"]): void;
  /** Whether the chat preview panel is open (right side). */
  chatPreviewOpen: boolean;
  /** Opens or closes the chat preview panel. */
  setChatPreviewOpen(open: boolean): void;
  /** Opens a dialog. */
  setDialog(dialog: UiSlice["dialog"]): void;
  /** Chooses the node run for the inspector. */
  inspect(target: InspectorTarget | null): void;
  /** Selects a node and asks its config field to take focus. */
  focusProblem(issue: CanvasIssue): void;
  /** Records a newly published version. */
  setPublishedVersion(version: number): void;
  /** Renames the workflow. */
  setWorkflowName(name: string): void;
  /**
   * True once the canvas has painted the workflow's nodes (`Canvas`): work the first view does
   * not need (the first compile, the minimap) waits for it.
   */
  canvasShown: boolean;
  /** Marks the canvas shown. */
  markCanvasShown(): void;
}

/** The whole editor store. */
export type EditorState = DocumentSlice & SelectionSlice & HistorySlice & RunSlice & UiSlice;
