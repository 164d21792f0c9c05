"use client";

import { useReactFlow } from "@xyflow/react";
import { Command } from "cmdk";
import { useEffect } from "react";
import { Kbd } from "@/components/ui/kbd";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { listNodeDefinitions } from "../node-catalog";
import { NOTE_TYPE } from "../store/document-conversion";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import { DEFAULT_NODE_SIZE } from "../store/graph-helpers";

/** Group headings, items (highlighted while selected) and scrolling, on the design tokens. */
const LIST_CLASS_NAME =
  "max-h-[min(60vh,480px)] overflow-y-auto p-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground [&_[cmdk-item]]:flex [&_[cmdk-item]]:min-w-0 [&_[cmdk-item]]:cursor-default [&_[cmdk-item]]:items-center [&_[cmdk-item]]:gap-2 [&_[cmdk-item]]:rounded-sm [&_[cmdk-item]]:px-2 [&_[cmdk-item]]:py-1.5 [&_[cmdk-item]]:text-sm [&_[cmdk-item][data-selected=true]]:bg-accent [&_[cmdk-item][data-selected=true]]:text-accent-foreground";

/** Editor actions the palette runs that live outside the store. */
export interface CommandPaletteHandlers {
  /** Auto-layout. */
  layout(): void;
  /** Save now. */
  save(): void;
  /** Open the run dialog. */
  run(): void;
}

/** Whether a key event opens the palette: Ctrl+K, or ⌘+K on a Mac. */
export function isCommandPaletteKey(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
}

/**
 * The command palette (Ctrl/⌘+K, `cmdk`): search nodes by title, type or id and jump to one, add
 * a node of any type (at the viewport's center, or where the pane's context menu was opened),
 * and run the editor's actions. Everything it does is also reachable elsewhere; it is the fast
 * path, as in n8n's and Dify's editors.
 */
export function CommandPalette({ handlers }: { handlers: CommandPaletteHandlers }) {
  const store = useEditorStoreApi();
  const palette = useEditorStore((state) => state.commandPalette);
  const readOnly = useEditorStore((state) => state.readOnly);
  const nodes = useEditorStore((state) => (state.commandPalette.open ? state.nodes : null));
  const { fitView, zoomIn, zoomOut, screenToFlowPosition } = useReactFlow();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isCommandPaletteKey(event)) return;
      event.preventDefault();
      const { commandPalette, setCommandPalette } = store.getState();
      setCommandPalette(commandPalette.open ? { open: false } : { open: true });
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [store]);

  const close = () => store.getState().setCommandPalette({ open: false });
  const perform = (action: () => void) => {
    close();
    action();
  };

  const addNode = (type: string) => {
    if (palette.open && palette.addAfter) {
      store.getState().addNodeAfter(palette.addAfter.nodeId, palette.addAfter.handleId, type);
      return;
    }
    let position = palette.open ? palette.addAt : undefined;
    if (!position) {
      const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
      const center = canvas
        ? screenToFlowPosition({ x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 })
        : { x: 0, y: 0 };
      position = { x: center.x - DEFAULT_NODE_SIZE.width / 2, y: center.y - DEFAULT_NODE_SIZE.height / 2 };
    }
    store.getState().addNode(type, position);
  };

  const jumpTo = (nodeId: string) =>
    store.getState().focusProblem({ code: "internal_error", severity: "warning", nodeId, path: [], message: "" });

  const state = store.getState();
  // Opened to add a node (the pane's menu or a node's "+"): only the node types are listed.
  const adding = palette.open && (palette.addAt !== undefined || palette.addAfter !== undefined);
  return (
    <Command.Dialog
      open={palette.open}
      onOpenChange={(open) => store.getState().setCommandPalette(open ? { open: true } : { open: false })}
      label="Command palette"
      data-testid="command-palette"
      overlayClassName="fixed inset-0 z-50 bg-black/40"
      contentClassName="fixed top-[12vh] left-1/2 z-50 w-[min(640px,92vw)] -translate-x-1/2 overflow-hidden rounded-xl border border-border bg-popover text-popover-foreground shadow-lg data-[state=open]:animate-pop-in"
    >
      <Command.Input
        placeholder={adding ? "Add a node…" : "Search nodes, add a node, run an action…"}
        data-testid="command-palette-input"
        aria-label="Search commands"
        className="w-full border-b border-border bg-transparent px-4 py-3 text-sm outline-none placeholder:text-muted-foreground"
      />
      <Command.List className={LIST_CLASS_NAME}>
        <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">Nothing matches.</Command.Empty>
        {!adding && nodes && nodes.length > 0 && (
          <Command.Group heading="Go to node">
            {nodes.map((node) => (
              <Command.Item
                key={node.id}
                value={`node ${node.id} ${String(node.data.title)} ${node.type}`}
                data-testid={`command-node-${node.id}`}
                onSelect={() => perform(() => jumpTo(node.id))}
              >
                <NodeTypeIcon type={node.type} size="sm" /> <span className="truncate">{String(node.data.title)}</span>
                <span className="ml-auto font-mono text-xs text-muted-foreground">{node.id}</span>
              </Command.Item>
            ))}
          </Command.Group>
        )}
        {!readOnly && (
          <Command.Group heading="Add node" data-testid={adding ? "add-node-menu" : undefined}>
            {listNodeDefinitions()
              .filter((definition) => !(palette.open && palette.addAfter && definition.type === "start"))
              .map((definition) => (
                <Command.Item
                  key={definition.type}
                  value={`add ${definition.label} ${definition.type} ${definition.description}`}
                  data-testid={
                    adding && palette.open && palette.addAfter
                      ? `add-node-${definition.type}`
                      : `command-add-${definition.type}`
                  }
                  onSelect={() => perform(() => addNode(definition.type))}
                >
                  <NodeTypeIcon type={definition.type} size="sm" />{" "}
                  <span className="shrink-0">Add {definition.label}</span>
                  <span className="truncate text-xs text-muted-foreground">{definition.description}</span>
                </Command.Item>
              ))}
          </Command.Group>
        )}
        {!adding && (
          <Command.Group heading="Actions">
            {!readOnly && (
              <Command.Item value="run workflow" data-testid="command-run" onSelect={() => perform(handlers.run)}>
                Run workflow <Kbd className="ml-auto">Ctrl+Enter</Kbd>
              </Command.Item>
            )}
            {!readOnly && (
              <Command.Item
                value="add sticky note comment"
                data-testid="command-add-note"
                onSelect={() => perform(() => addNode(NOTE_TYPE))}
              >
                Add note
              </Command.Item>
            )}
            {!readOnly && (
              <Command.Item value="save now" data-testid="command-save" onSelect={() => perform(handlers.save)}>
                Save now <Kbd className="ml-auto">Ctrl+S</Kbd>
              </Command.Item>
            )}
            {!readOnly && (
              <Command.Item
                value="auto-layout arrange"
                data-testid="command-layout"
                onSelect={() => perform(handlers.layout)}
              >
                Auto-layout <Kbd className="ml-auto">Shift+L</Kbd>
              </Command.Item>
            )}
            <Command.Item
              value="fit view zoom"
              data-testid="command-fit-view"
              onSelect={() => perform(() => void fitView({ padding: 0.2, maxZoom: 1 }))}
            >
              Fit view <Kbd className="ml-auto">Shift+1</Kbd>
            </Command.Item>
            <Command.Item value="zoom in" onSelect={() => perform(() => void zoomIn())}>
              Zoom in <Kbd className="ml-auto">Ctrl+=</Kbd>
            </Command.Item>
            <Command.Item value="zoom out" onSelect={() => perform(() => void zoomOut())}>
              Zoom out <Kbd className="ml-auto">Ctrl+-</Kbd>
            </Command.Item>
            <Command.Item
              value="show problems"
              data-testid="command-problems"
              onSelect={() => perform(() => state.setBottomPanel("problems"))}
            >
              Show problems
            </Command.Item>
            <Command.Item
              value="show variables outputs env"
              data-testid="command-variables"
              onSelect={() => perform(() => state.setBottomPanel("variables"))}
            >
              Show variables
            </Command.Item>
            <Command.Item value="show run panel" onSelect={() => perform(() => state.setBottomPanel("run"))}>
              Show run panel
            </Command.Item>
            {!readOnly && (
              <Command.Item value="publish" onSelect={() => perform(() => state.setDialog("publish"))}>
                Publish…
              </Command.Item>
            )}
            {!readOnly && (
              <Command.Item value="schedule cron" onSelect={() => perform(() => state.setDialog("schedule"))}>
                Schedule…
              </Command.Item>
            )}
            <Command.Item value="keyboard shortcuts help" onSelect={() => perform(() => state.setDialog("shortcuts"))}>
              Keyboard shortcuts <Kbd className="ml-auto">?</Kbd>
            </Command.Item>
          </Command.Group>
        )}
      </Command.List>
    </Command.Dialog>
  );
}
