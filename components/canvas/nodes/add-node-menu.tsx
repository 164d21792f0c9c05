"use client";

import { PlusIcon } from "lucide-react";
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
    <div className="nodrag nopan absolute -right-8.5 z-10 -translate-y-1/2" style={{ top }}>
      <button
        type="button"
        className="flex size-5 items-center justify-center rounded-full border border-primary bg-card p-0 text-primary shadow-xs transition-colors hover:bg-primary hover:text-primary-foreground"
        data-testid={`add-after-${handleId}`}
        title="Add a node after this one"
        aria-label="Add a node after this one"
        onClick={(event) => {
          event.stopPropagation();
          store.getState().setCommandPalette({ open: true, addAfter: { nodeId, handleId } });
        }}
      >
        <PlusIcon className="size-3" strokeWidth={2.5} aria-hidden="true" />
      </button>
    </div>
  );
});
