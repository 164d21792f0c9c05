"use client";

import { Handle, type NodeProps, NodeResizer, Position } from "@xyflow/react";
import { memo, useCallback } from "react";
import { NODE_ICONS } from "../node-catalog";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { CanvasNode } from "../store/types";
import { AddNodeMenu } from "./add-node-menu";
import { handleOffset, NodeTitle } from "./node-card";
import { NodeIssues } from "./node-issues";
import { NodeRunBadge } from "./node-run-badge";
import { useNodeView } from "./use-node-view";

/**
 * The iteration container. Body nodes are React Flow children (`parentId`, `extent: "parent"`);
 * edges never cross the border (the canvas's isValidConnection): the body reads `{{item}}`.
 */
export const IterationNode = memo(function IterationNode({ id, type, data, selected }: NodeProps<CanvasNode>) {
  const { summary, ports } = useNodeView(type, data);
  const store = useEditorStoreApi();
  const readOnly = useEditorStore((state) => state.readOnly);
  const onResizeStart = useCallback(() => store.getState().beginGesture(), [store]);
  return (
    <div className={selected ? "wf-container wf-node-selected" : "wf-container"} data-testid={`node-${type}`}>
      <NodeResizer isVisible={selected && !readOnly} minWidth={260} minHeight={160} onResizeStart={onResizeStart} />
      <Handle type="target" position={Position.Left} id="in" style={{ top: 28 }} />
      <div className="wf-container-header">
        <span className="node-icon node-icon-flow">{NODE_ICONS[type] ?? "⟳"}</span>
        <NodeTitle title={data.title} />
        <span className="wf-node-summary" data-testid="node-summary">
          {summary}
        </span>
      </div>
      <div className="wf-container-status">
        <NodeIssues nodeId={id} />
        <NodeRunBadge nodeId={id} />
      </div>
      <div className="wf-container-hint">Drop nodes here: they run once per item ({"{{item}}"})</div>
      {ports.map((port, index) => (
        <div key={port.id}>
          <Handle
            type="source"
            position={Position.Right}
            id={port.id}
            style={{ top: ports.length === 1 ? 28 : handleOffset(index, ports.length) }}
            data-testid={`handle-${port.id}`}
          />
          {selected && (
            <AddNodeMenu
              nodeId={id}
              handleId={port.id}
              top={ports.length === 1 ? "28px" : handleOffset(index, ports.length)}
            />
          )}
        </div>
      ))}
    </div>
  );
});
