"use client";

import { useEffect } from "react";
import { RUN_EVENT_TYPES, type RunEvent } from "@/lib/runs/run-events";
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
    const onMessage = (message: MessageEvent<string>) => {
      let event: RunEvent;
      try {
        event = JSON.parse(message.data) as RunEvent;
      } catch {
        return;
      }
      store.getState().applyRunEvent(event);
      if (event.type === "run-end") source.close();
    };
    // The server may name each SSE event after its type (`event: node-start`); named events
    // never reach `onmessage`, so listen for every type as well as for unnamed messages.
    source.addEventListener("message", onMessage);
    for (const type of RUN_EVENT_TYPES) source.addEventListener(type, onMessage);
    return () => source.close();
  }, [runId, store]);
}
