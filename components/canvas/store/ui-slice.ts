import type { StateCreator } from "zustand";
import type { CanvasIssue, EditorState, UiSlice } from "./types";

function sameIssues(left: CanvasIssue[] | undefined, right: CanvasIssue[]): boolean {
  if (!left || left.length !== right.length) return false;
  return left.every(
    (issue, index) =>
      issue.code === right[index].code &&
      issue.message === right[index].message &&
      issue.path.join(".") === right[index].path.join("."),
  );
}

/** UI state: never saved into the document. */
export const createUiSlice =
  (initial: {
    workflowId: string;
    workflowName: string;
    workflowSlug?: string;
    revision: number;
    publishedVersion: number | null;
    readOnly?: boolean;
    viewingVersion?: number | null;
    canEditDraft?: boolean;
  }): StateCreator<EditorState, [], [], UiSlice> =>
  (set, get) => ({
    workflowId: initial.workflowId,
    workflowName: initial.workflowName,
    workflowSlug: initial.workflowSlug ?? "",
    revision: initial.revision,
    publishedVersion: initial.publishedVersion,
    readOnly: initial.readOnly ?? false,
    viewingVersion: initial.viewingVersion ?? null,
    canEditDraft: initial.canEditDraft ?? !initial.readOnly,
    saveState: "saved",
    conflictRevision: null,
    issues: [],
    issuesByNode: {},
    bottomPanel: "none",
    dialog: "none",
    inspectorTarget: null,
    focusRequest: null,
    commandPalette: { open: false },
    setCommandPalette(commandPalette) {
      set({ commandPalette });
    },
    setIssues(issues) {
      // Keep the previous array of a node when its issues did not change, so that its
      // component's selector returns the same reference and it does not re-render.
      const previous = get().issuesByNode;
      const grouped: Record<string, CanvasIssue[]> = {};
      for (const issue of issues) {
        if (!issue.nodeId) continue;
        const list = grouped[issue.nodeId] ?? [];
        list.push(issue);
        grouped[issue.nodeId] = list;
      }
      const issuesByNode: Record<string, CanvasIssue[]> = {};
      for (const [nodeId, list] of Object.entries(grouped)) {
        issuesByNode[nodeId] = sameIssues(previous[nodeId], list) ? previous[nodeId] : list;
      }
      set({ issues, issuesByNode });
    },
    setSaveState(saveState, revision, conflictRevision) {
      set({
        saveState,
        ...(revision !== undefined ? { revision } : {}),
        ...(conflictRevision !== undefined ? { conflictRevision } : {}),
      });
    },
    setBottomPanel(bottomPanel) {
      set({ bottomPanel });
    },
    chatPreviewOpen: false,
    setChatPreviewOpen(chatPreviewOpen) {
      set({ chatPreviewOpen });
    },
    setDialog(dialog) {
      set({ dialog });
    },
    inspect(inspectorTarget) {
      set({ inspectorTarget, ...(inspectorTarget ? { bottomPanel: "run" as const } : {}) });
    },
    focusProblem(issue) {
      if (issue.nodeId) get().selectNodes([issue.nodeId]);
      if (issue.nodeId) set({ focusRequest: { nodeId: issue.nodeId, path: issue.path, token: Date.now() } });
    },
    setPublishedVersion(publishedVersion) {
      set({ publishedVersion });
    },
    setWorkflowName(workflowName) {
      set({ workflowName, changeCount: get().changeCount + 1 });
    },
    canvasShown: false,
    markCanvasShown() {
      if (!get().canvasShown) set({ canvasShown: true });
    },
  });
