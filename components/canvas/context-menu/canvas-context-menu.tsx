"use client";

import { useReactFlow } from "@xyflow/react";
import { type MouseEvent as ReactMouseEvent, useCallback, useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { Kbd } from "@/components/ui/kbd";
import { readFragment, writeFragment } from "../clipboard";
import { NOTE_TYPE } from "../store/document-conversion";
import { useEditorStoreApi } from "../store/editor-store-context";
import type { CanvasEdge, CanvasNode } from "../store/types";

/** What was right-clicked, and where on the screen. */
type MenuTarget =
  | { kind: "node"; nodeId: string; x: number; y: number }
  | { kind: "edge"; edgeId: string; x: number; y: number }
  | { kind: "pane"; x: number; y: number };

interface MenuItem {
  id: string;
  label: string;
  shortcut?: string;
  danger?: boolean;
  run(): void;
}

/**
 * The canvas's right-click menus: a node (edit, duplicate, copy, delete), an edge (delete) and
 * the pane (add a node here, paste, select all, fit view, command palette). Returns the React
 * Flow handlers and the menu element; keyboard: arrows move, Enter runs, Escape closes.
 */
export function useCanvasContextMenu() {
  const store = useEditorStoreApi();
  const [target, setTarget] = useState<MenuTarget | null>(null);

  const onNodeContextMenu = useCallback((event: ReactMouseEvent, node: CanvasNode) => {
    event.preventDefault();
    setTarget({ kind: "node", nodeId: node.id, x: event.clientX, y: event.clientY });
  }, []);
  const onEdgeContextMenu = useCallback((event: ReactMouseEvent, edge: CanvasEdge) => {
    event.preventDefault();
    setTarget({ kind: "edge", edgeId: edge.id, x: event.clientX, y: event.clientY });
  }, []);
  const onPaneContextMenu = useCallback((event: ReactMouseEvent | MouseEvent) => {
    event.preventDefault();
    setTarget({ kind: "pane", x: event.clientX, y: event.clientY });
  }, []);
  const close = useCallback(() => setTarget(null), []);

  const menu = target ? <ContextMenu target={target} onClose={close} readOnly={store.getState().readOnly} /> : null;
  return { onNodeContextMenu, onEdgeContextMenu, onPaneContextMenu, menu };
}

function ContextMenu({ target, onClose, readOnly }: { target: MenuTarget; onClose: () => void; readOnly: boolean }) {
  const store = useEditorStoreApi();
  const { fitView, screenToFlowPosition } = useReactFlow();
  const menuRef = useRef<HTMLDivElement>(null);

  const items: MenuItem[] = [];
  if (target.kind === "node") {
    const selectThis = () => {
      const { selectedNodeIds, selectNodes } = store.getState();
      // Acting on a node outside the selection acts on that node alone.
      if (!selectedNodeIds.includes(target.nodeId)) selectNodes([target.nodeId]);
    };
    items.push({
      id: "edit",
      label: "Edit settings",
      run: () => store.getState().selectNodes([target.nodeId]),
    });
    if (!readOnly) {
      items.push({
        id: "duplicate",
        label: "Duplicate",
        shortcut: "Ctrl+D",
        run: () => {
          selectThis();
          store.getState().duplicateSelection();
        },
      });
    }
    items.push({
      id: "copy",
      label: "Copy",
      shortcut: "Ctrl+C",
      run: () => {
        selectThis();
        const fragment = store.getState().copySelection();
        if (fragment) void writeFragment(fragment);
      },
    });
    if (!readOnly) {
      items.push({
        id: "delete",
        label: "Delete",
        shortcut: "Del",
        danger: true,
        run: () => {
          selectThis();
          store.getState().removeSelection();
        },
      });
    }
  } else if (target.kind === "edge") {
    if (!readOnly) {
      items.push({
        id: "delete-edge",
        label: "Delete connection",
        danger: true,
        run: () => store.getState().removeElements([], [target.edgeId]),
      });
    }
  } else {
    const point = screenToFlowPosition({ x: target.x, y: target.y });
    if (!readOnly) {
      items.push({
        id: "add-node",
        label: "Add node here…",
        run: () => store.getState().setCommandPalette({ open: true, addAt: point }),
      });
      items.push({ id: "add-note", label: "Add note", run: () => store.getState().addNode(NOTE_TYPE, point) });
      items.push({
        id: "paste",
        label: "Paste",
        shortcut: "Ctrl+V",
        run: () =>
          void readFragment().then((fragment) => {
            if (fragment) store.getState().pasteFragment(fragment);
          }),
      });
    }
    items.push({
      id: "select-all",
      label: "Select all",
      shortcut: "Ctrl+A",
      run: () => {
        const state = store.getState();
        state.selectNodes(state.nodes.map((node) => node.id));
      },
    });
    items.push({
      id: "fit-view",
      label: "Fit view",
      shortcut: "Shift+1",
      run: () => void fitView({ padding: 0.2, maxZoom: 1 }),
    });
    items.push({
      id: "command-palette",
      label: "Command palette…",
      shortcut: "Ctrl+K",
      run: () => store.getState().setCommandPalette({ open: true }),
    });
  }

  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) onClose();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        onClose();
      }
    };
    window.addEventListener("pointerdown", onPointerDown, true);
    window.addEventListener("keydown", onKeyDown, true);
    window.addEventListener("blur", onClose);
    return () => {
      window.removeEventListener("pointerdown", onPointerDown, true);
      window.removeEventListener("keydown", onKeyDown, true);
      window.removeEventListener("blur", onClose);
    };
  }, [onClose]);

  const onMenuKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const buttons = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === "ArrowDown" ? (index + 1) % buttons.length : (index - 1 + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  if (items.length === 0) return null;
  // Keep the menu inside the window.
  const left = Math.min(target.x, window.innerWidth - 220);
  const top = Math.min(target.y, window.innerHeight - items.length * 32 - 16);
  return (
    <div
      ref={menuRef}
      role="menu"
      aria-label={
        target.kind === "node" ? "Node actions" : target.kind === "edge" ? "Connection actions" : "Canvas actions"
      }
      className="z-50 min-w-48 rounded-lg border border-border bg-popover p-1 text-popover-foreground shadow-lg"
      data-testid={`context-menu-${target.kind}`}
      style={{ position: "fixed", left, top }}
      onKeyDown={onMenuKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {items.map((item) => (
        <button
          type="button"
          role="menuitem"
          key={item.id}
          data-testid={`context-${item.id}`}
          className={cn(
            "flex w-full cursor-default items-center gap-4 rounded-sm px-2 py-1.5 text-left text-sm outline-none select-none hover:bg-accent focus:bg-accent focus:text-accent-foreground",
            item.danger && "text-destructive focus:text-destructive",
          )}
          onClick={() => {
            onClose();
            item.run();
          }}
        >
          <span>{item.label}</span>
          {item.shortcut && <Kbd className="ml-auto">{item.shortcut}</Kbd>}
        </button>
      ))}
    </div>
  );
}
