"use client";

import { memo } from "react";
import { NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Code: the language and how many values go in and out. */
export const CodeNode = memo(function CodeNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const outputs = Array.isArray(view.config.outputs) ? view.config.outputs.length : 0;
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view}>
      <NodeDetail label="Returns" testId="node-code-outputs">
        {outputs} output{outputs === 1 ? "" : "s"}
      </NodeDetail>
    </NodeCard>
  );
});
