"use client";

import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import { NODE_ICONS } from "../node-catalog";
import type { CanvasNode } from "../store/types";
import { AddNodeMenu } from "./add-node-menu";
import { NodeIssues } from "./node-issues";
import { NodeRunBadge } from "./node-run-badge";
import { useNodeView } from "./use-node-view";

/** Vertical offset of the n-th of `count` source handles. */
export function handleOffset(index: number, count: number): string {
  return `${((index + 1) / (count + 1)) * 100}%`;
}

/**
 * The card every non-container node type renders: icon, title, config summary, compile issues,
 * live run status, one target handle and one labelled source handle per output port.
 */
export const WorkflowNode = memo(function WorkflowNode({ id, type, data, selected }: NodeProps<CanvasNode>) {
  const { definition, summary, ports } = useNodeView(type, data);
  return (
    <div className={selected ? "wf-node wf-node-selected" : "wf-node"} data-testid={`node-${type}`}>
      {definition?.hasInput !== false && <Handle type="target" position={Position.Left} id="in" />}
      <div className="wf-node-header">
        <span className={`node-icon node-icon-${definition?.category ?? "flow"}`}>{NODE_ICONS[type] ?? "•"}</span>
        <span className="wf-node-title" data-testid="node-title">
          {data.title}
        </span>
      </div>
      <div className="wf-node-summary" data-testid="node-summary">
        {summary}
      </div>
      <NodeIssues nodeId={id} />
      <NodeRunBadge nodeId={id} />
      {ports.map((port, index) => (
        <div key={port.id}>
          <Handle
            type="source"
            position={Position.Right}
            id={port.id}
            style={{ top: handleOffset(index, ports.length) }}
            data-testid={`handle-${port.id}`}
          />
          {ports.length > 1 && (
            <span className="port-label" style={{ top: handleOffset(index, ports.length) }}>
              {port.label}
            </span>
          )}
          {selected && <AddNodeMenu nodeId={id} handleId={port.id} top={handleOffset(index, ports.length)} />}
        </div>
      ))}
    </div>
  );
});
