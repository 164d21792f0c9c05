"use client";

import { useReactFlow } from "@xyflow/react";
import { PanelLeftCloseIcon, PanelLeftOpenIcon, SearchIcon } from "lucide-react";
import { type DragEvent, memo, useCallback, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { ScrollArea } from "@/components/ui/scroll-area";
import { Tooltip } from "@/components/ui/tooltip";
import type { NodeDefinition } from "@/lib/workflow/node-definition";
import { listNodeDefinitions, NODE_CATEGORIES } from "../node-catalog";
import { useEditorStoreApi } from "../store/editor-store-context";
import { initialSizeOf, placeNewNode } from "./placement";

/** Drag-and-drop data type carrying the node type from the palette to the canvas. */
export const NODE_DRAG_MIME = "application/x-trellis-node-type";

function onDragStart(event: DragEvent, type: string) {
  event.dataTransfer.setData(NODE_DRAG_MIME, type);
  event.dataTransfer.effectAllowed = "move";
}

/**
 * Adds a node of `type` next to the selected node, or at the centre of the visible canvas, on a
 * free spot (placement.ts), and brings it into view when it landed outside.
 */
function useAddFromPalette(): (type: string) => void {
  const store = useEditorStoreApi();
  const { screenToFlowPosition, flowToScreenPosition, setCenter, getZoom } = useReactFlow();
  return useCallback(
    (type: string) => {
      const state = store.getState();
      if (state.readOnly) return;
      const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
      if (!canvas) return;
      const center = screenToFlowPosition({ x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 });
      const selected =
        state.selectedNodeIds.length === 1
          ? state.nodes.find((node) => node.id === state.selectedNodeIds[0])
          : undefined;
      const placement = placeNewNode(type, state.nodes, selected, center);
      const id = state.addNode(type, placement.position, placement.parentId);
      const added = store.getState().nodes.find((node) => node.id === id);
      if (!added) return;
      const parent = added.parentId ? store.getState().nodes.find((node) => node.id === added.parentId) : undefined;
      const absolute = {
        x: added.position.x + (parent?.position.x ?? 0),
        y: added.position.y + (parent?.position.y ?? 0),
      };
      const size = initialSizeOf(type);
      const topLeft = flowToScreenPosition(absolute);
      const bottomRight = flowToScreenPosition({ x: absolute.x + size.width, y: absolute.y + size.height });
      const visible =
        topLeft.x >= canvas.left &&
        topLeft.y >= canvas.top &&
        bottomRight.x <= canvas.right &&
        bottomRight.y <= canvas.bottom;
      if (!visible)
        void setCenter(absolute.x + size.width / 2, absolute.y + size.height / 2, { zoom: getZoom(), duration: 200 });
    },
    [store, screenToFlowPosition, flowToScreenPosition, setCenter, getZoom],
  );
}

const ITEM_HINT = "Click or press Enter to add; drag onto the canvas to place it.";

/** One palette entry: a button that adds its node on click/Enter and can be dragged onto the canvas. */
function PaletteItem({ definition, onAdd }: { definition: NodeDefinition; onAdd: (type: string) => void }) {
  return (
    <button
      type="button"
      draggable
      onDragStart={(event) => onDragStart(event, definition.type)}
      onClick={() => onAdd(definition.type)}
      data-testid={`palette-item-${definition.type}`}
      title={`${definition.description}\n${ITEM_HINT}`}
      className="group flex w-full cursor-grab items-center gap-2.5 rounded-md border border-transparent px-2 py-1 text-left outline-none transition-colors select-none hover:border-border hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/50 active:cursor-grabbing"
    >
      <NodeTypeIcon type={definition.type} size="md" />
      <span className="flex min-w-0 flex-col">
        <span className="truncate text-sm font-medium text-foreground">{definition.label}</span>
        <span className="truncate text-2xs text-muted-foreground">{definition.description}</span>
      </span>
    </button>
  );
}

/**
 * Every node type grouped by category and searchable; click (or Enter) adds a node next to the
 * selection or at the viewport centre, drag places it. Collapsed, it is a rail of icons.
 */
export const NodePalette = memo(function NodePalette({
  collapsed,
  onToggle,
}: {
  collapsed: boolean;
  onToggle: () => void;
}) {
  const [query, setQuery] = useState("");
  const add = useAddFromPalette();
  const groups = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const matching = listNodeDefinitions().filter(
      (definition) =>
        needle === "" ||
        definition.label.toLowerCase().includes(needle) ||
        definition.type.includes(needle) ||
        definition.description.toLowerCase().includes(needle),
    );
    return NODE_CATEGORIES.map((category) => ({
      ...category,
      definitions: matching.filter((definition) => definition.category === category.id),
    })).filter((group) => group.definitions.length > 0);
  }, [query]);

  if (collapsed) {
    return (
      <aside
        className="flex w-rail shrink-0 flex-col items-center gap-1 border-r border-border bg-card py-2"
        data-testid="palette"
        data-collapsed="true"
        aria-label="Nodes"
      >
        <Tooltip content="Show the node palette" side="right">
          <Button
            variant="ghost"
            size="icon"
            onClick={onToggle}
            aria-label="Expand palette"
            data-testid="palette-toggle"
          >
            <PanelLeftOpenIcon />
          </Button>
        </Tooltip>
        <div className="my-1 h-px w-6 bg-border" />
        <ScrollArea className="min-h-0 w-full flex-1" viewportLabel="Node types">
          <div className="flex flex-col items-center gap-1 pb-2">
            {listNodeDefinitions().map((definition) => (
              <Tooltip key={definition.type} content={`${definition.label}: ${ITEM_HINT}`} side="right">
                <button
                  type="button"
                  draggable
                  onDragStart={(event) => onDragStart(event, definition.type)}
                  onClick={() => add(definition.type)}
                  data-testid={`palette-item-${definition.type}`}
                  aria-label={`Add ${definition.label}`}
                  className="rounded-md p-1 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/50"
                >
                  <NodeTypeIcon type={definition.type} size="lg" />
                </button>
              </Tooltip>
            ))}
          </div>
        </ScrollArea>
      </aside>
    );
  }

  return (
    <aside
      className="flex w-palette shrink-0 flex-col border-r border-border bg-card"
      data-testid="palette"
      data-collapsed="false"
      aria-label="Nodes"
    >
      <div className="flex items-center gap-1 p-2 pb-1">
        <div className="relative flex-1">
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-2 size-3.5 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <input
            className="h-8 w-full rounded-md border border-input bg-background pr-2 pl-7 text-sm outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
            type="search"
            placeholder="Search nodes…"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            data-testid="palette-search"
            aria-label="Search nodes"
          />
        </div>
        <Tooltip content="Collapse to icons" side="right">
          <Button
            variant="ghost"
            size="icon"
            onClick={onToggle}
            aria-label="Collapse palette"
            data-testid="palette-toggle"
          >
            <PanelLeftCloseIcon />
          </Button>
        </Tooltip>
      </div>
      <ScrollArea className="min-h-0 flex-1" viewportLabel="Node types">
        <div className="px-2 pb-3">
          {groups.map((group) => (
            <section key={group.id} className="mt-2" data-testid={`palette-group-${group.id}`}>
              <h3 className="m-0 mb-1 px-2 text-2xs font-semibold tracking-wider text-muted-foreground uppercase">
                {group.label}
              </h3>
              <div className="flex flex-col gap-0.5">
                {group.definitions.map((definition) => (
                  <PaletteItem key={definition.type} definition={definition} onAdd={add} />
                ))}
              </div>
            </section>
          ))}
          {groups.length === 0 && (
            <p className={cn("px-2 text-sm text-muted-foreground")}>No node matches “{query}”.</p>
          )}
        </div>
      </ScrollArea>
    </aside>
  );
});
