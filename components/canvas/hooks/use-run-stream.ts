"use client";

import { useEffect } from "react";
import type { RunEvent } from "@/lib/engine/run-events";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/**
 * Follows the current run over SSE. EventSource reconnects by itself after a dropped
 * connection; replayed events are ignored by seq in the store, and the stream is closed on
 * `run-end` so that the browser does not reconnect to a finished run.
 */
export function useRunStream(): void {
  const store = useEditorStoreApi();
  const runId = useEditorStore((state) => state.runId);
  useEffect(() => {
    if (!runId) return;
    const source = new EventSource(`/api/runs/${runId}/events?after=${store.getState().lastSeq}`);
    source.onmessage = (message) => {
      let event: RunEvent;
      try {
        event = JSON.parse(message.data) as RunEvent;
      } catch {
        return;
      }
      store.getState().applyRunEvent(event);
      if (event.type === "run-end") source.close();
    };
    return () => source.close();
  }, [runId, store]);
}
