"use client";

import { Handle, type NodeProps, NodeResizer, Position } from "@xyflow/react";
import { memo, useCallback } from "react";
import { cn } from "@/components/ui/cn";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
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
    <div
      className={cn(
        "wf-container relative size-full rounded-xl border-[1.5px] bg-node-iteration/5 text-xs",
        selected
          ? "wf-node-selected border-solid border-primary ring-2 ring-primary/20"
          : "border-dashed border-node-iteration/50",
      )}
      data-testid={`node-${type}`}
    >
      <NodeResizer isVisible={selected && !readOnly} minWidth={260} minHeight={160} onResizeStart={onResizeStart} />
      <Handle type="target" position={Position.Left} id="in" style={{ top: 28 }} />
      <div className="flex min-w-0 items-center gap-2 px-3 py-2">
        <NodeTypeIcon type={type} size="md" />
        <NodeTitle title={data.title} />
        <span className="wf-node-summary ml-1 truncate text-xs text-muted-foreground" data-testid="node-summary">
          {summary}
        </span>
      </div>
      <div className="flex max-w-full flex-col items-start gap-1 pr-3.5 pl-3 [&_.node-issues]:mt-0 [&_.node-run]:mt-0">
        <NodeIssues nodeId={id} />
        <NodeRunBadge nodeId={id} />
      </div>
      <div className="wf-container-hint pointer-events-none absolute bottom-1.5 left-3 text-2xs text-muted-foreground">
        Drop nodes here: they run once per item ({"{{item}}"})
      </div>
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
