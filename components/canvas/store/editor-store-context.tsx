"use client";

import { createContext, type ReactNode, useContext, useState } from "react";
import { useStore } from "zustand";
import { createEditorStore, type EditorStore, type EditorStoreInit } from "./editor-store";
import type { EditorState } from "./types";

const EditorStoreContext = createContext<EditorStore | null>(null);

/** Creates the editor's store once and provides it to the tree below. */
export function EditorStoreProvider({ init, children }: { init: EditorStoreInit; children: ReactNode }) {
  const [store] = useState(() => createEditorStore(init));
  return <EditorStoreContext.Provider value={store}>{children}</EditorStoreContext.Provider>;
}

/** The store itself, for event handlers that read state without subscribing. */
export function useEditorStoreApi(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditorStoreApi must be used inside <EditorStoreProvider>");
  return store;
}

/** Subscribes to a narrow slice of the editor state; keep selectors small and return stable values. */
export function useEditorStore<Selected>(selector: (state: EditorState) => Selected): Selected {
  return useStore(useEditorStoreApi(), selector);
}
