"use client";

import { useReactFlow } from "@xyflow/react";
import { type DragEvent, memo, useMemo, useState } from "react";
import { listNodeDefinitions, NODE_CATEGORIES, NODE_ICONS } from "../node-catalog";
import { useEditorStoreApi } from "../store/editor-store-context";
import { DEFAULT_NODE_SIZE } from "../store/graph-helpers";

/** Drag-and-drop data type carrying the node type from the palette to the canvas. */
export const NODE_DRAG_MIME = "application/x-trellis-node-type";

/** Every node type grouped by category, searchable; drag onto the canvas or click to add at the center. */
export const NodePalette = memo(function NodePalette() {
  const [query, setQuery] = useState("");
  const store = useEditorStoreApi();
  const { screenToFlowPosition } = useReactFlow();
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

  const onDragStart = (event: DragEvent, type: string) => {
    event.dataTransfer.setData(NODE_DRAG_MIME, type);
    event.dataTransfer.effectAllowed = "move";
  };

  const addAtCenter = (type: string) => {
    const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    if (!canvas) return;
    const center = screenToFlowPosition({ x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 });
    store
      .getState()
      .addNode(type, { x: center.x - DEFAULT_NODE_SIZE.width / 2, y: center.y - DEFAULT_NODE_SIZE.height / 2 });
  };

  return (
    <aside className="palette" data-testid="palette">
      <input
        className="input"
        type="search"
        placeholder="Search nodes…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        data-testid="palette-search"
        aria-label="Search nodes"
      />
      {groups.map((group) => (
        <section key={group.id} className="palette-group" data-testid={`palette-group-${group.id}`}>
          <h3>{group.label}</h3>
          {group.definitions.map((definition) => (
            <div
              key={definition.type}
              className="palette-item"
              draggable
              onDragStart={(event) => onDragStart(event, definition.type)}
              onDoubleClick={() => addAtCenter(definition.type)}
              data-testid={`palette-item-${definition.type}`}
              title={`${definition.description}\nDrag onto the canvas, or double-click to add.`}
            >
              <span className={`node-icon node-icon-${definition.category}`}>{NODE_ICONS[definition.type] ?? "•"}</span>
              <span className="palette-item-text">
                <span className="palette-item-label">{definition.label}</span>
                <span className="palette-item-description">{definition.description}</span>
              </span>
            </div>
          ))}
        </section>
      ))}
      {groups.length === 0 && <p className="muted">No node matches “{query}”.</p>}
    </aside>
  );
});
