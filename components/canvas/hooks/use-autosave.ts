"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef } from "react";
import { graphToDocument } from "../store/document-conversion";
import type { EditorStore } from "../store/editor-store";

/** Quiet time after the last edit before the draft is saved. */
const AUTOSAVE_DEBOUNCE_MS = 800;
/** Delay before retrying after a network or server error. */
const RETRY_AFTER_ERROR_MS = 5000;

/** Controls returned by the autosave hook. */
export interface AutosaveControls {
  /** Saves now (Ctrl+S). */
  saveNow(): void;
  /** Keeps the local draft and replaces the server's (after a conflict). */
  overwrite(): Promise<void>;
  /** Drops local changes and loads the server's draft (after a conflict). */
  reload(): Promise<void>;
  /** Saves whatever is pending and resolves true once the server has everything. */
  flush(): Promise<boolean>;
}

/** How long a navigation waits for the save in flight before it saves again, per attempt. */
const FLUSH_POLL_MS = 50;
/** Attempts of a flush (a save that raced with an edit saves again). */
const FLUSH_ATTEMPTS = 100;

/** The in-app link a click follows, when it is one the editor should guard. */
function guardedLink(event: MouseEvent): HTMLAnchorElement | null {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return null;
  }
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if (anchor.target && anchor.target !== "_self") return null;
  if (anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return anchor;
}

/**
 * Debounced draft autosave with optimistic concurrency: every save sends the revision it is
 * based on; a 409 puts the editor in `conflict` and nothing is saved until the user chooses.
 */
export function useAutosave(store: EditorStore): AutosaveControls {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef(false);
  // save and schedule call each other; the ref breaks the cycle between the two callbacks.
  const scheduleRef = useRef<(delay: number) => void>(() => undefined);

  const save = useCallback(
    async (force?: { expectedRevision: number }) => {
      const state = store.getState();
      // A viewer's editor never saves (the server would refuse it anyway).
      if (state.readOnly) return;
      if (state.saveState === "conflict" && !force) return;
      if (inFlight.current) return;
      inFlight.current = true;
      const savedChangeCount = state.changeCount;
      state.setSaveState("saving");
      try {
        const response = await fetch(`/api/workflows/${state.workflowId}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            draft: graphToDocument(state.nodes, state.edges),
            expectedRevision: force?.expectedRevision ?? state.revision,
            name: state.workflowName,
          }),
        });
        if (response.status === 409) {
          const body = (await response.json()) as { error?: { currentRevision?: number } };
          store.getState().setSaveState("conflict", undefined, body.error?.currentRevision ?? null);
          return;
        }
        if (!response.ok) throw new Error(`Save failed with ${response.status}`);
        const { revision, slug } = (await response.json()) as { revision: number; slug?: string };
        if (slug) store.setState({ workflowSlug: slug });
        const unchanged = store.getState().changeCount === savedChangeCount;
        store.getState().setSaveState(unchanged ? "saved" : "unsaved", revision, null);
        if (!unchanged) scheduleRef.current(AUTOSAVE_DEBOUNCE_MS);
      } catch {
        store.getState().setSaveState("error");
        scheduleRef.current(RETRY_AFTER_ERROR_MS);
      } finally {
        inFlight.current = false;
      }
    },
    [store],
  );

  const schedule = useCallback(
    (delay: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        if (store.getState().isDragging) scheduleRef.current(delay);
        else void save();
      }, delay);
    },
    [store, save],
  );
  scheduleRef.current = schedule;

  useEffect(() => {
    const unsubscribe = store.subscribe((state, previous) => {
      const changed = state.changeCount !== previous.changeCount;
      const dragEnded = previous.isDragging && !state.isDragging;
      if (!changed && !dragEnded) return;
      if (changed && state.saveState !== "conflict" && state.saveState !== "unsaved") state.setSaveState("unsaved");
      // No timer work per drag frame: the save is scheduled once, when the drag ends.
      if (store.getState().isDragging) return;
      if (store.getState().saveState === "unsaved") schedule(AUTOSAVE_DEBOUNCE_MS);
    });
    const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
      if (store.getState().saveState !== "saved") event.preventDefault();
    };
    window.addEventListener("beforeunload", warnBeforeLeaving);
    return () => {
      unsubscribe();
      clearTimeout(timer.current);
      window.removeEventListener("beforeunload", warnBeforeLeaving);
    };
  }, [store, schedule]);

  const saveNow = useCallback(() => {
    clearTimeout(timer.current);
    void save();
  }, [save]);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    for (let attempt = 0; attempt < FLUSH_ATTEMPTS; attempt++) {
      const { saveState, readOnly } = store.getState();
      if (readOnly || saveState === "saved") return true;
      if (saveState === "conflict") return false;
      if (inFlight.current) await new Promise((resolve) => setTimeout(resolve, FLUSH_POLL_MS));
      else {
        await save();
        clearTimeout(timer.current);
        if (store.getState().saveState === "error") return false;
      }
    }
    return store.getState().saveState === "saved";
  }, [save, store]);

  // In-app navigation (the "← Workflows" link, History, …) unmounts the editor without a
  // beforeunload: the pending debounced save was dropped with it. Links wait for the save, and
  // when it fails the user decides whether to leave.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const state = store.getState();
      if (state.readOnly || state.saveState === "saved") return;
      const anchor = guardedLink(event);
      if (!anchor) return;
      event.preventDefault();
      event.stopPropagation();
      const href = anchor.href;
      void flush().then((saved) => {
        if (saved || window.confirm("Your latest changes could not be saved. Leave the editor and lose them?")) {
          const url = new URL(href);
          router.push(`${url.pathname}${url.search}${url.hash}`);
        }
      });
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [store, flush, router]);

  const overwrite = useCallback(async () => {
    const conflictRevision = store.getState().conflictRevision;
    if (conflictRevision === null) return;
    await save({ expectedRevision: conflictRevision });
  }, [save, store]);

  const reload = useCallback(async () => {
    const state = store.getState();
    const response = await fetch(`/api/workflows/${state.workflowId}`);
    if (!response.ok) return;
    const { workflow } = (await response.json()) as {
      workflow: { name: string; draft: Parameters<typeof state.loadDocument>[0]; draftRevision: number };
    };
    clearTimeout(timer.current);
    state.loadDocument(workflow.draft);
    store.setState({ workflowName: workflow.name });
    state.setSaveState("saved", workflow.draftRevision, null);
  }, [store]);

  return { saveNow, overwrite, reload, flush };
}
