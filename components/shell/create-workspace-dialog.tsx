"use client";

import { type FormEvent, useState } from "react";
import { sendJson } from "@/components/settings/settings-api";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/form-field";
import type { WorkspaceView } from "@/lib/contracts/workspace-views";
import { switchWorkspace } from "./switch-workspace";

/** "Create workspace": a name, then the new workspace becomes the current one (a reload into it). */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await sendJson<{ workspace: WorkspaceView }>("/api/workspaces", "POST", { name });
    if (!result.ok) {
      setBusy(false);
      setError(result.issues.find((issue) => issue.path === "name")?.message ?? result.message);
      return;
    }
    const problem = await switchWorkspace(result.data.workspace.id);
    setBusy(false);
    if (problem) setError(problem);
  };

  return (
    <Dialog open={open} title="Create workspace" onClose={onClose} testId="create-workspace-dialog">
      <form onSubmit={(event) => void submit(event)} data-testid="create-workspace-form">
        <p className="mt-0 text-muted-foreground">
          A workspace has its own workflows, runs, settings and members. You will be its owner.
        </p>
        <TextField
          id="workspace-name"
          label="Name"
          value={name}
          onChange={setName}
          error={error}
          errorTestId="workspace-name-error"
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy} data-testid="create-workspace-submit">
            Create workspace
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
