"use client";

import { PlusIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import {
  WORKFLOW_TAG_COLORS,
  type WorkflowTagColor,
  type WorkflowTagView,
  workflowTagNameSchema,
} from "@/lib/contracts/workflow-tag";

/** Each tag colour drawn with the badge tone of the design system (light and dark follow the tokens). */
const TONE_BY_COLOR = {
  gray: "neutral",
  blue: "info",
  green: "success",
  amber: "warning",
  red: "destructive",
  violet: "primary",
} as const satisfies Record<WorkflowTagColor, string>;

/** A tag as a coloured chip (the list's rows, the filter, the editor). */
export function TagChip({
  tag,
  testId = "tag-chip",
}: {
  tag: Pick<WorkflowTagView, "name" | "color">;
  testId?: string;
}) {
  return (
    <Badge tone={TONE_BY_COLOR[tag.color]} data-testid={testId} data-tag={tag.name}>
      {tag.name}
    </Badge>
  );
}

/** The message (and field, when the server names one) of a failed tag request. */
export async function failure(response: Response): Promise<{ message: string; field?: string }> {
  try {
    const body = (await response.json()) as {
      error?: { message?: string; field?: string; issues?: { path: string; message: string }[] };
    };
    const issue = body.error?.issues?.[0];
    return {
      message: issue?.message ?? body.error?.message ?? response.statusText,
      field: issue?.path ?? body.error?.field,
    };
  } catch {
    return { message: `Request failed (${response.status})` };
  }
}

/**
 * Chooses a workflow's tags: tick the workspace's tags, or create one inline (it is ticked at
 * once). Saving replaces the workflow's set (`PUT /api/workflows/:id/tags`). Opened from a row of
 * the workflow list and from the editor's toolbar.
 */
export function TagEditorDialog({
  workflowId,
  workflowName,
  open,
  onClose,
  onSaved,
}: {
  workflowId: string;
  workflowName: string;
  open: boolean;
  onClose: () => void;
  /** Called with the workflow's tags after a save. */
  onSaved?: (tags: WorkflowTagView[]) => void;
}) {
  const [tags, setTags] = useState<WorkflowTagView[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [newName, setNewName] = useState("");
  const [newColor, setNewColor] = useState<WorkflowTagColor>("blue");
  const [nameError, setNameError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setTags(null);
    setNameError(null);
    setSaveError(null);
    void Promise.all([fetch("/api/tags"), fetch(`/api/workflows/${workflowId}/tags`)]).then(async ([all, mine]) => {
      if (cancelled) return;
      if (!all.ok || !mine.ok) {
        setSaveError((await failure(all.ok ? mine : all)).message);
        setTags([]);
        return;
      }
      const workspaceTags = ((await all.json()) as { tags: WorkflowTagView[] }).tags;
      const workflowTags = ((await mine.json()) as { tags: WorkflowTagView[] }).tags;
      setTags(workspaceTags);
      setChosen(new Set(workflowTags.map((tag) => tag.id)));
    });
    return () => {
      cancelled = true;
    };
  }, [open, workflowId]);

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const create = async () => {
    // The contract's own rule, so the message matches the server's.
    const parsed = workflowTagNameSchema.safeParse(newName);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? "Enter a tag name");
      return;
    }
    setBusy(true);
    const response = await fetch("/api/tags", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: parsed.data, color: newColor }),
    });
    setBusy(false);
    if (!response.ok) {
      setNameError((await failure(response)).message);
      return;
    }
    const { tag } = (await response.json()) as { tag: WorkflowTagView };
    setTags((current) => [...(current ?? []), tag].sort((a, b) => a.name.localeCompare(b.name)));
    toggle(tag.id, true);
    setNewName("");
    setNameError(null);
  };

  const save = async () => {
    setBusy(true);
    const response = await fetch(`/api/workflows/${workflowId}/tags`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tagIds: [...chosen] }),
    });
    setBusy(false);
    if (!response.ok) {
      setSaveError((await failure(response)).message);
      return;
    }
    onSaved?.(((await response.json()) as { tags: WorkflowTagView[] }).tags);
    onClose();
  };

  return (
    <Dialog
      open={open}
      title={`Tags of “${workflowName}”`}
      onClose={onClose}
      testId="tag-editor"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" data-testid="tag-editor-save" disabled={busy || tags === null} onClick={save}>
            Save tags
          </Button>
        </>
      }
    >
      {tags === null ? (
        <p className="text-muted-foreground text-sm">Loading tags…</p>
      ) : (
        <fieldset className="m-0 flex flex-col gap-2 border-0 p-0" data-testid="tag-editor-list">
          <legend className="mb-1 text-xs font-semibold">Workspace tags</legend>
          {tags.length === 0 && (
            <p className="text-muted-foreground m-0 text-sm">No tags yet: create the first one below.</p>
          )}
          {tags.map((tag) => (
            <div key={tag.id} className="flex items-center gap-2 text-sm" data-testid="tag-option" data-tag={tag.name}>
              <Checkbox
                id={`tag-option-${tag.id}`}
                checked={chosen.has(tag.id)}
                onCheckedChange={(value) => toggle(tag.id, value === true)}
              />
              <label htmlFor={`tag-option-${tag.id}`} className="flex cursor-pointer items-center gap-2">
                <TagChip tag={tag} />
                <span className="text-muted-foreground text-xs">
                  {tag.workflowCount} workflow{tag.workflowCount === 1 ? "" : "s"}
                </span>
              </label>
            </div>
          ))}
        </fieldset>
      )}
      <div className="mt-4 flex flex-col gap-1.5">
        <label className="text-xs font-semibold" htmlFor="new-tag-name">
          New tag
        </label>
        <div className="flex gap-2">
          <Input
            id="new-tag-name"
            data-testid="new-tag-name"
            value={newName}
            maxLength={40}
            aria-invalid={nameError !== null}
            aria-describedby={nameError ? "new-tag-name-error" : undefined}
            onChange={(event) => {
              setNewName(event.target.value);
              setNameError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                void create();
              }
            }}
          />
          <NativeSelect
            wrapperClassName="w-28 shrink-0"
            aria-label="New tag colour"
            data-testid="new-tag-color"
            value={newColor}
            onChange={(event) => setNewColor(event.target.value as WorkflowTagColor)}
          >
            {WORKFLOW_TAG_COLORS.map((color) => (
              <option key={color} value={color}>
                {color}
              </option>
            ))}
          </NativeSelect>
          <Button data-testid="create-tag" disabled={busy} onClick={create}>
            <PlusIcon /> Add
          </Button>
        </div>
        {nameError && (
          <p className="m-0 text-xs text-destructive" id="new-tag-name-error" data-testid="new-tag-error">
            {nameError}
          </p>
        )}
      </div>
      {saveError && (
        <p className="mt-3 text-sm text-destructive" data-testid="tag-editor-error">
          {saveError}
        </p>
      )}
    </Dialog>
  );
}
