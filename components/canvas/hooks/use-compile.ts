"use client";

import { useEffect } from "react";
import { compileWorkflow } from "@/lib/workflow/compile";
import { graphToDocument } from "../store/document-conversion";
import type { EditorStore } from "../store/editor-store";

/** Wait after the last change before compiling: typing and dragging never compile per keystroke or frame. */
const COMPILE_DEBOUNCE_MS = 300;

/** Compiles the draft in the browser after changes settle and publishes the issues to the store. */
export function useCompile(store: EditorStore): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const compile = () => {
      const { nodes, edges, setIssues } = store.getState();
      try {
        const result = compileWorkflow(graphToDocument(nodes, edges));
        setIssues(
          result.ok ? ("warnings" in result && Array.isArray(result.warnings) ? result.warnings : []) : result.issues,
        );
      } catch (error) {
        setIssues([{ code: "internal_error", severity: "error", path: [], message: String(error) }]);
      }
    };
    compile();
    const unsubscribe = store.subscribe((state, previous) => {
      const changed = state.changeCount !== previous.changeCount || state.isDragging !== previous.isDragging;
      if (!changed) return;
      clearTimeout(timer);
      if (state.isDragging) return;
      timer = setTimeout(compile, COMPILE_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store]);
}
