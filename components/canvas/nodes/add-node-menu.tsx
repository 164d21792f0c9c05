"use client";

import { memo, useState } from "react";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { listNodeDefinitions } from "../node-catalog";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** The "+" button beside a source handle: picks a type, adds it to the right and connects it. */
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
  const [open, setOpen] = useState(false);
  const readOnly = useEditorStore((state) => state.readOnly);
  if (readOnly) return null;
  return (
    <div className="add-node nodrag nopan" style={{ top }}>
      <button
        type="button"
        className="add-node-button"
        data-testid={`add-after-${handleId}`}
        title="Add a node after this one"
        onClick={(event) => {
          event.stopPropagation();
          setOpen((value) => !value);
        }}
      >
        +
      </button>
      {open && (
        <div className="add-node-menu nowheel" data-testid="add-node-menu">
          {listNodeDefinitions()
            .filter((definition) => definition.type !== "start")
            .map((definition) => (
              <button
                type="button"
                key={definition.type}
                data-testid={`add-node-${definition.type}`}
                onClick={(event) => {
                  event.stopPropagation();
                  setOpen(false);
                  store.getState().addNodeAfter(nodeId, handleId, definition.type);
                }}
              >
                <NodeTypeIcon type={definition.type} size="sm" /> {definition.label}
              </button>
            ))}
        </div>
      )}
    </div>
  );
});
