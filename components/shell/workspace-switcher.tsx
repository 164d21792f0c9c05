"use client";

import { Command } from "cmdk";
import { CheckIcon, ChevronsUpDownIcon, PlusIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { sendJson } from "@/components/settings/settings-api";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import type { WorkspaceView } from "@/lib/contracts/workspace-views";
import { CreateWorkspaceDialog } from "./create-workspace-dialog";
import { switchWorkspace } from "./switch-workspace";

/**
 * The signed-in user's workspaces (null until loaded, or when they cannot be read), fetched once
 * per page by the header for its switcher and for what its nav offers.
 */
export function useWorkspaces(): WorkspaceView[] | null {
  const [workspaces, setWorkspaces] = useState<WorkspaceView[] | null>(null);
  useEffect(() => {
    void sendJson<{ workspaces: WorkspaceView[] }>("/api/workspaces", "GET").then((result) => {
      if (result.ok) setWorkspaces(result.data.workspaces);
    });
  }, []);
  return workspaces;
}

/**
 * The header's workspace switcher: shows the current workspace, lists the others (searchable,
 * arrow keys and Enter), and "Create workspace" opens a dialog.
 */
export function WorkspaceSwitcher({ workspaces }: { workspaces: WorkspaceView[] | null }) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (!workspaces) return null;
  const current = workspaces.find((workspace) => workspace.current);

  const choose = async (workspace: WorkspaceView) => {
    setOpen(false);
    if (workspace.current) return;
    setProblem(await switchWorkspace(workspace.id));
  };

  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <button
            type="button"
            className="inline-flex h-8 max-w-56 items-center gap-1.5 rounded-md border border-input bg-card px-2.5 text-sm font-medium shadow-xs outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/60"
            data-testid="workspace-switcher"
            data-current={current?.id}
            aria-label={`Workspace: ${current?.name ?? "none"}. Switch workspace`}
            aria-haspopup="listbox"
          >
            <span className="truncate" data-testid="current-workspace">
              {current?.name ?? "Choose a workspace"}
            </span>
            <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          </button>
        </PopoverTrigger>
        <PopoverContent className="w-72 p-0" align="start" aria-label="Switch workspace" data-testid="workspace-menu">
          <Command label="Workspaces">
            <Command.Input
              placeholder="Find a workspace…"
              aria-label="Find a workspace"
              className="w-full border-b border-border bg-transparent px-3 py-2 text-sm outline-none placeholder:text-muted-foreground"
            />
            <Command.List className="max-h-72 overflow-y-auto p-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground">
              <Command.Empty className="px-3 py-4 text-sm text-muted-foreground">No workspace matches.</Command.Empty>
              <Command.Group heading="Workspaces">
                {workspaces.map((workspace) => (
                  <Command.Item
                    key={workspace.id}
                    value={`${workspace.name} ${workspace.slug} ${workspace.id}`}
                    data-testid="workspace-option"
                    data-id={workspace.id}
                    aria-current={workspace.current ? "true" : undefined}
                    onSelect={() => void choose(workspace)}
                    className="flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
                  >
                    <CheckIcon
                      className={workspace.current ? "size-4 shrink-0" : "size-4 shrink-0 opacity-0"}
                      aria-hidden
                    />
                    <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
                    <span className="text-xs text-muted-foreground">{workspace.role}</span>
                  </Command.Item>
                ))}
              </Command.Group>
              {/* A group rather than cmdk's Separator: a role="separator" inside the listbox is not an
                  allowed child (axe aria-required-children). */}
              <Command.Group className="mt-1 border-t border-border pt-1">
                <Command.Item
                  value="Create workspace"
                  data-testid="create-workspace"
                  onSelect={() => {
                    setOpen(false);
                    setCreating(true);
                  }}
                  className="flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
                >
                  <PlusIcon className="size-4 shrink-0" aria-hidden />
                  Create workspace
                </Command.Item>
              </Command.Group>
            </Command.List>
          </Command>
        </PopoverContent>
      </Popover>
      {problem && (
        <p role="alert" className="text-xs text-destructive" data-testid="workspace-switch-error">
          {problem}
        </p>
      )}
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
