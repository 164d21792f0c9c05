"use client";

import { PencilIcon, Trash2Icon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { type WorkflowTagView, workflowTagNameSchema } from "@/lib/contracts/workflow-tag";
import { failure, TagChip } from "./workflow-tags";

/** What one row of the dialog is doing: shown, being renamed, or asking to confirm a delete. */
type RowMode = { kind: "view" } | { kind: "rename"; name: string; error: string | null } | { kind: "delete" };

/**
 * The workspace's tags, each renamed (`PATCH /api/tags/:id`) or deleted after a confirm
 * (`DELETE /api/tags/:id`, which also takes it off every workflow). A taken name (the server's
 * 409, any case) is shown on the name field. Opened from the workflow list; `onChanged` reports
 * each rename (old and new name) or delete so the list can refresh and follow its tag filter.
 */
export function ManageTagsDialog({
  tags,
  open,
  onClose,
  onChanged,
}: {
  tags: WorkflowTagView[];
  open: boolean;
  onClose: () => void;
  onChanged: (change: { from: string; to: string | null }) => void;
}) {
  const [current, setCurrent] = useState<WorkflowTagView[]>(tags);
  const [modes, setModes] = useState<Record<string, RowMode>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const focusTarget = useRef<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setCurrent(tags);
    setModes({});
    setError(null);
  }, [open, tags]);

  // Moves focus to the control a mode change revealed (the name field, the confirm button).
  useEffect(() => {
    if (!focusTarget.current) return;
    document.getElementById(focusTarget.current)?.focus();
    focusTarget.current = null;
  });

  const modeOf = (id: string): RowMode => modes[id] ?? { kind: "view" };
  const setMode = (id: string, mode: RowMode, focus?: string) => {
    focusTarget.current = focus ?? null;
    setModes((all) => ({ ...all, [id]: mode }));
  };

  const rename = async (tag: WorkflowTagView, name: string) => {
    // The contract's own rule, so the message matches the server's.
    const parsed = workflowTagNameSchema.safeParse(name);
    if (!parsed.success) {
      setMode(tag.id, { kind: "rename", name, error: parsed.error.issues[0]?.message ?? "Enter a tag name" });
      return;
    }
    if (parsed.data === tag.name) {
      setMode(tag.id, { kind: "view" }, `rename-tag-${tag.id}`);
      return;
    }
    setBusy(tag.id);
    const response = await fetch(`/api/tags/${encodeURIComponent(tag.id)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: parsed.data }),
    });
    setBusy(null);
    if (!response.ok) {
      setMode(tag.id, { kind: "rename", name, error: (await failure(response)).message });
      return;
    }
    const { tag: renamed } = (await response.json()) as { tag: WorkflowTagView };
    setCurrent((all) =>
      all.map((each) => (each.id === tag.id ? renamed : each)).sort((a, b) => a.name.localeCompare(b.name)),
    );
    setMode(tag.id, { kind: "view" }, `rename-tag-${tag.id}`);
    onChanged({ from: tag.name, to: renamed.name });
  };

  const remove = async (tag: WorkflowTagView) => {
    setBusy(tag.id);
    const response = await fetch(`/api/tags/${encodeURIComponent(tag.id)}`, { method: "DELETE" });
    setBusy(null);
    if (!response.ok) {
      setError((await failure(response)).message);
      setMode(tag.id, { kind: "view" });
      return;
    }
    setCurrent((all) => all.filter((each) => each.id !== tag.id));
    onChanged({ from: tag.name, to: null });
  };

  return (
    <Dialog
      open={open}
      title="Manage tags"
      onClose={onClose}
      testId="manage-tags"
      footer={
        <Button variant="ghost" onClick={onClose}>
          Done
        </Button>
      }
    >
      {current.length === 0 ? (
        <p className="text-muted-foreground m-0 text-sm" data-testid="manage-tags-empty">
          No tags in this workspace.
        </p>
      ) : (
        <ul className="m-0 flex list-none flex-col gap-2 p-0" aria-label="Workspace tags">
          {current.map((tag) => {
            const mode = modeOf(tag.id);
            const errorId = `manage-tag-error-${tag.id}`;
            return (
              <li key={tag.id} className="flex flex-col gap-1" data-testid="manage-tag-row" data-tag={tag.name}>
                {mode.kind === "rename" ? (
                  <form
                    className="flex items-center gap-2"
                    onSubmit={(event) => {
                      event.preventDefault();
                      void rename(tag, mode.name);
                    }}
                  >
                    <Input
                      id={`manage-tag-name-${tag.id}`}
                      data-testid="manage-tag-name"
                      aria-label={`New name for the tag ${tag.name}`}
                      value={mode.name}
                      maxLength={40}
                      aria-invalid={mode.error !== null}
                      aria-describedby={mode.error ? errorId : undefined}
                      onChange={(event) => setMode(tag.id, { kind: "rename", name: event.target.value, error: null })}
                      onKeyDown={(event) => {
                        // Escape leaves the rename, not the whole dialog.
                        if (event.key === "Escape") {
                          event.preventDefault();
                          event.stopPropagation();
                          setMode(tag.id, { kind: "view" }, `rename-tag-${tag.id}`);
                        }
                      }}
                    />
                    <Button type="submit" size="sm" data-testid="manage-tag-save" disabled={busy === tag.id}>
                      Save
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      onClick={() => setMode(tag.id, { kind: "view" }, `rename-tag-${tag.id}`)}
                    >
                      Cancel
                    </Button>
                  </form>
                ) : (
                  <div className="flex items-center gap-2">
                    <TagChip tag={tag} />
                    <span className="text-muted-foreground flex-1 text-xs">
                      {tag.workflowCount} workflow{tag.workflowCount === 1 ? "" : "s"}
                    </span>
                    <Button
                      id={`rename-tag-${tag.id}`}
                      size="sm"
                      variant="ghost"
                      data-testid="manage-tag-rename"
                      aria-label={`Rename the tag ${tag.name}`}
                      onClick={() =>
                        setMode(tag.id, { kind: "rename", name: tag.name, error: null }, `manage-tag-name-${tag.id}`)
                      }
                    >
                      <PencilIcon /> Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      data-testid="manage-tag-delete"
                      aria-label={`Delete the tag ${tag.name}`}
                      disabled={mode.kind === "delete"}
                      onClick={() => setMode(tag.id, { kind: "delete" }, `manage-tag-confirm-${tag.id}`)}
                    >
                      <Trash2Icon /> Delete
                    </Button>
                  </div>
                )}
                {mode.kind === "rename" && mode.error && (
                  <p className="m-0 text-xs text-destructive" id={errorId} data-testid="manage-tag-error">
                    {mode.error}
                  </p>
                )}
                {mode.kind === "delete" && (
                  <div
                    className="flex flex-wrap items-center gap-2 rounded-md border border-destructive/40 px-2 py-1.5 text-sm"
                    data-testid="manage-tag-confirm"
                  >
                    <span className="flex-1">
                      Delete “{tag.name}”? It is removed from {tag.workflowCount} workflow
                      {tag.workflowCount === 1 ? "" : "s"}.
                    </span>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setMode(tag.id, { kind: "view" }, `rename-tag-${tag.id}`)}
                    >
                      Keep
                    </Button>
                    <Button
                      id={`manage-tag-confirm-${tag.id}`}
                      size="sm"
                      variant="destructive"
                      data-testid="manage-tag-confirm-delete"
                      disabled={busy === tag.id}
                      onClick={() => void remove(tag)}
                    >
                      Delete tag
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p className="mt-3 text-sm text-destructive" data-testid="manage-tags-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}
