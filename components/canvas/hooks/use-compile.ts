"use client";

import { useEffect } from "react";
import { compileWorkflow } from "@/lib/workflow/compile";
import { fetchCatalog, type ToolOption } from "../panels/widgets/catalog-fetch";
import { graphToDocument } from "../store/document-conversion";
import type { EditorStore } from "../store/editor-store";
import { afterCanvasShown } from "./after-canvas-shown";

/** Wait after the last change before compiling: typing and dragging never compile per keystroke or frame. */
const COMPILE_DEBOUNCE_MS = 300;

/** Longest wait for an idle moment, once the canvas is shown, before the first compile runs anyway. */
const FIRST_COMPILE_TIMEOUT_MS = 1000;

/**
 * Compiles the draft in the browser after changes settle and publishes the issues to the store.
 * Once the workspace's tools are loaded (`/api/tools`), unknown tool names are issues too.
 */
export function useCompile(store: EditorStore): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let knownToolNames: string[] | undefined;
    let disposed = false;
    const compile = () => {
      const { nodes, edges, setIssues } = store.getState();
      try {
        const result = compileWorkflow(graphToDocument(nodes, edges), { knownToolNames });
        setIssues(
          result.ok ? ("warnings" in result && Array.isArray(result.warnings) ? result.warnings : []) : result.issues,
        );
      } catch (error) {
        setIssues([{ code: "internal_error", severity: "error", path: [], message: String(error) }]);
      }
    };
    // The first compile waits until the canvas has painted its nodes: with 1,000 nodes it is a
    // long task, and the nodes matter more than their issues in the first second. The tools'
    // answer usually comes first, so one compile covers both.
    const initial = afterCanvasShown(store, compile, FIRST_COMPILE_TIMEOUT_MS);
    void fetchCatalog<ToolOption>("/api/tools").then((tools) => {
      // An empty answer is a failed load (the built-ins always exist): keep not checking.
      if (disposed || tools.length === 0) return;
      knownToolNames = tools.map((tool) => tool.name);
      if (initial.pending()) return;
      compile();
    });
    const unsubscribe = store.subscribe((state, previous) => {
      const changed = state.changeCount !== previous.changeCount || state.isDragging !== previous.isDragging;
      if (!changed) return;
      clearTimeout(timer);
      if (state.isDragging) return;
      timer = setTimeout(compile, COMPILE_DEBOUNCE_MS);
    });
    return () => {
      disposed = true;
      initial.cancel();
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store]);
}
