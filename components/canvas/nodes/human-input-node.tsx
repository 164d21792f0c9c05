"use client";

import { memo } from "react";
import { NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Human input: the prompt excerpt and how many fields the form asks for. */
export const HumanInputNode = memo(function HumanInputNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const fields = Array.isArray(view.config.fields) ? view.config.fields.length : 0;
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view}>
      <NodeDetail label="Form" testId="node-fields">
        {fields} field{fields === 1 ? "" : "s"}
      </NodeDetail>
    </NodeCard>
  );
});
