"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import type { EditorStore } from "../store/editor-store";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { CanvasIssue } from "../store/types";
import { ApiExamplesPanel } from "./api-examples-panel";

/** How long publishing waits for a pending autosave. */
const SAVE_WAIT_MS = 15_000;

/** Resolves once the draft is saved (the server publishes its stored draft), false on a conflict or timeout. */
function waitUntilSaved(store: EditorStore): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const { saveState } = store.getState();
      if (saveState === "saved") resolve(true);
      else if (saveState === "conflict") resolve(false);
      else return false;
      return true;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      unsubscribe();
      resolve(false);
    }, SAVE_WAIT_MS);
    const unsubscribe = store.subscribe(() => {
      if (!check()) return;
      clearTimeout(timer);
      unsubscribe();
    });
  });
}

/** Publishes the draft as a new immutable version with a note. */
export function PublishDialog({ onSave }: { onSave: () => void }) {
  const store = useEditorStoreApi();
  const open = useEditorStore((state) => state.dialog === "publish");
  const errorCount = useEditorStore((state) => state.issues.filter((issue) => issue.severity === "error").length);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<CanvasIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const nodes = useEditorStore((state) => state.nodes);
  const titleOf = (nodeId: string | undefined) => nodes.find((node) => node.id === nodeId)?.data.title ?? nodeId;
  const close = () => {
    setError(null);
    setRefused([]);
    store.getState().setDialog("none");
  };
  /** Closes the dialog on the node a refused issue names, its field focused (like the Problems panel). */
  const goTo = (issue: CanvasIssue) => {
    close();
    store.getState().focusProblem(issue);
  };

  const publish = async () => {
    setBusy(true);
    setError(null);
    setRefused([]);
    try {
      if (store.getState().saveState !== "saved") onSave();
      if (!(await waitUntilSaved(store))) {
        setError("The draft could not be saved; resolve that first.");
        return;
      }
      const response = await fetch(`/api/workflows/${store.getState().workflowId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action: "publish", note }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as {
          error?: { code?: string; message?: string; issues?: Omit<CanvasIssue, "severity">[] };
        } | null;
        // The server compiles before publishing: a draft with errors is refused and the endpoint
        // keeps serving the last good version. List what it found, each linking to its node.
        if (body?.error?.code === "workflow_invalid" && body.error.issues?.length) {
          setRefused(body.error.issues.map((issue) => ({ ...issue, severity: "error" as const })));
          setError("Not published: fix these first. The endpoint keeps serving the last published version.");
          return;
        }
        setError(body?.error?.message ?? `Publishing failed (${response.status}).`);
        return;
      }
      const { version } = (await response.json()) as { version: number };
      store.getState().setPublishedVersion(version);
      setNote("");
      close();
    } catch {
      setError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Publish a version"
      onClose={close}
      testId="publish-dialog"
      footer={
        <button
          type="button"
          className="button button-primary"
          data-testid="publish-submit"
          disabled={busy}
          onClick={() => void publish()}
        >
          {busy ? "Publishing…" : "Publish"}
        </button>
      }
    >
      {errorCount > 0 && (
        <p className="field-error">
          The draft has {errorCount} problem{errorCount === 1 ? "" : "s"}: the published endpoint will refuse to run
          until a fixed version is published.
        </p>
      )}
      <label className="field-label" htmlFor="publish-note">
        Version note
      </label>
      <textarea
        id="publish-note"
        className="input"
        rows={3}
        maxLength={500}
        placeholder="What changed in this version"
        data-testid="publish-note"
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      {error && <p className="field-error">{error}</p>}
      {refused.length > 0 && (
        <ul className="problems" data-testid="publish-issues">
          {refused.map((issue) => (
            <li key={`${issue.code}-${issue.nodeId}-${issue.path.join(".")}-${issue.message}`}>
              <button
                type="button"
                className="problem"
                data-testid="publish-issue"
                data-node-id={issue.nodeId}
                onClick={() => goTo(issue)}
              >
                {issue.nodeId && <b>{titleOf(issue.nodeId)}</b>}
                <span>{issue.message}</span>
                <code className="muted">{issue.code}</code>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ApiExamplesPanel />
    </Dialog>
  );
}
