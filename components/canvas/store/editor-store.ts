import { createStore, type StoreApi } from "zustand/vanilla";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { createDocumentSlice } from "./document-slice";
import { createHistorySlice } from "./history-slice";
import { createRunSlice } from "./run-slice";
import { createSelectionSlice } from "./selection-slice";
import type { EditorState } from "./types";
import { createUiSlice } from "./ui-slice";

/** What an editor store starts from. */
export interface EditorStoreInit {
  /** Workflow id. */
  workflowId: string;
  /** Workflow name. */
  workflowName: string;
  /** URL name of the published endpoint (`/api/v1/workflows/<slug>/run`). */
  workflowSlug?: string;
  /** Server draft revision. */
  revision: number;
  /** Highest published version, null when never published. */
  publishedVersion: number | null;
  /** The draft document. */
  document: WorkflowDocument;
  /** True for viewers: the editor shows the workflow and its runs but changes nothing. */
  readOnly?: boolean;
  /** A published version shown read-only instead of the draft (implies `readOnly`). */
  viewingVersion?: number | null;
  /** Whether the user may edit the draft (offers "Restore into draft" while viewing a version). */
  canEditDraft?: boolean;
}

/** The store type handed around through context. */
export type EditorStore = StoreApi<EditorState>;

/** Creates one store per editor instance; there is no global store (two editors never share state). */
export function createEditorStore(init: EditorStoreInit): EditorStore {
  const store = createStore<EditorState>()((...args) => ({
    ...createDocumentSlice(...args),
    ...createSelectionSlice(...args),
    ...createHistorySlice(...args),
    ...createRunSlice(...args),
    ...createUiSlice(init)(...args),
  }));
  store.getState().loadDocument(init.document);
  return store;
}
