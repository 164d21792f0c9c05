"use client";

import { useEffect } from "react";
import type { EditorStore } from "../store/editor-store";

/** Statuses of an editor run worth following again after a reload, most urgent first. */
const RESTORED_STATUSES = ["waiting", "running"] as const;

/**
 * After a reload, picks up the newest editor run of this workflow that still waits for human
 * input (or is still running): the run panel opens and the event stream replays from the first
 * event, so the answer form and the node states are back. Without this, a waiting run vanished
 * from the editor although it still waited in the history.
 */
export function useRestoreActiveRun(store: EditorStore): void {
  useEffect(() => {
    let cancelled = false;
    const { workflowId } = store.getState();
    void (async () => {
      for (const status of RESTORED_STATUSES) {
        const response = await fetch(`/api/workflows/${workflowId}/runs?status=${status}&trigger=editor&limit=1`).catch(
          () => null,
        );
        if (!response?.ok) return;
        const { runs } = (await response.json()) as { runs: { id: string }[] };
        const runId = runs[0]?.id;
        if (cancelled || store.getState().runId !== null) return;
        if (runId) {
          store.getState().startRun(runId);
          store.getState().setBottomPanel("run");
          return;
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [store]);
}
