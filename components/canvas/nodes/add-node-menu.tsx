"use client";

import { memo } from "react";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/**
 * The "+" button beside a source handle: opens the command palette in "add after" mode (screen
 * scale, searchable); the picked type is placed to the right without overlapping anything and
 * connected (`addNodeAfter`).
 */
export const AddNodeMenu = memo(function AddNodeMenu({
  nodeId,
  handleId,
  top,
}: {
  nodeId: string;
  handleId: string;
  top: string;
}) {
  const store = useEditorStoreApi();
  const readOnly = useEditorStore((state) => state.readOnly);
  if (readOnly) return null;
  return (
    <div className="add-node nodrag nopan" style={{ top }}>
      <button
        type="button"
        className="add-node-button"
        data-testid={`add-after-${handleId}`}
        title="Add a node after this one"
        aria-label="Add a node after this one"
        onClick={(event) => {
          event.stopPropagation();
          store.getState().setCommandPalette({ open: true, addAfter: { nodeId, handleId } });
        }}
      >
        +
      </button>
    </div>
  );
});
