"use client";

import { RocketIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { ProblemList } from "../panels/problem-list";
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
  const titleOf = (nodeId: string) => nodes.find((node) => node.id === nodeId)?.data.title ?? nodeId;
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
      wide
      footer={
        <Button variant="primary" data-testid="publish-submit" disabled={busy} onClick={() => void publish()}>
          <RocketIcon aria-hidden /> {busy ? "Publishing…" : "Publish"}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        {errorCount > 0 && (
          <Alert tone="warning">
            <p>
              The draft has {errorCount} problem{errorCount === 1 ? "" : "s"}: the published endpoint will refuse to run
              until a fixed version is published.
            </p>
          </Alert>
        )}
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="publish-note">Version note</Label>
          <Textarea
            id="publish-note"
            className="min-h-0"
            rows={3}
            maxLength={500}
            placeholder="What changed in this version"
            data-testid="publish-note"
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        {error && (
          <Alert tone="destructive" role="alert">
            <p>{error}</p>
            {refused.length > 0 && (
              <ProblemList
                issues={refused}
                titleOf={titleOf}
                onSelect={goTo}
                listTestId="publish-issues"
                itemTestId="publish-issue"
              />
            )}
          </Alert>
        )}
        <ApiExamplesPanel />
      </div>
    </Dialog>
  );
}
