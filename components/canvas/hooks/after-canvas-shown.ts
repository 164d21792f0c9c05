"use client";

import { useEffect, useState } from "react";
import type { EditorStore } from "../store/editor-store";
import { useEditorStoreApi } from "../store/editor-store-context";

/** What {@link afterCanvasShown} returns. */
export interface Deferred {
  /** Whether the task is still to come. */
  pending(): boolean;
  /** Drops the task. */
  cancel(): void;
}

/**
 * Runs `task` once the canvas has painted its nodes (`canvasShown`) and the browser is then idle,
 * or `timeoutMs` after the canvas was shown at the latest. For work the first view does not need:
 * on a 1,000-node load it would otherwise run between the hand-off and the first frame.
 */
export function afterCanvasShown(store: EditorStore, task: () => void, timeoutMs: number): Deferred {
  let done = false;
  let idle: number | undefined;
  const run = () => {
    if (done) return;
    done = true;
    task();
  };
  const schedule = () => {
    idle =
      typeof requestIdleCallback === "function"
        ? requestIdleCallback(run, { timeout: timeoutMs })
        : (setTimeout(run, 0) as unknown as number);
  };
  let unsubscribe = () => {};
  if (store.getState().canvasShown) schedule();
  else
    unsubscribe = store.subscribe((state) => {
      if (!state.canvasShown) return;
      unsubscribe();
      schedule();
    });
  return {
    pending: () => !done,
    cancel() {
      done = true;
      unsubscribe();
      if (idle === undefined) return;
      if (typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
      else clearTimeout(idle);
    },
  };
}

/** False until {@link afterCanvasShown} would run: for parts of the editor drawn after the nodes. */
export function useAfterCanvasShown(timeoutMs: number): boolean {
  const store = useEditorStoreApi();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const deferred = afterCanvasShown(store, () => setReady(true), timeoutMs);
    return () => deferred.cancel();
  }, [store, timeoutMs]);
  return ready;
}
