"use client";

import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { restoreVersionIntoDraft } from "../dialogs/versions-dialog";
import type { EditorStore } from "../store/editor-store";

/**
 * `?restore=N` (the read-only view's "Restore into draft"): once the draft editor is up, version
 * N replaces the draft as one undoable step, and the parameter leaves the URL so a reload does
 * not restore it again.
 */
export function useRestoreFromQuery(store: EditorStore): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const url = new URL(window.location.href);
    const value = url.searchParams.get("restore");
    if (!value) return;
    url.searchParams.delete("restore");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    const { readOnly, viewingVersion } = store.getState();
    if (readOnly || viewingVersion !== null || !/^[1-9]\d{0,8}$/.test(value)) return;
    void restoreVersionIntoDraft(store, Number(value)).then((failed) => {
      if (failed) toast.error(failed);
      else toast.success(`Restored v${value} into the draft. Undo (Ctrl+Z) brings the previous draft back.`);
    });
  }, [store]);
}
