"use client";

import { memo } from "react";
import { modelNameOf, NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Synthesizer: the model that writes the final answer. */
export const SynthesizerNode = memo(function SynthesizerNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view}>
      <NodeDetail label="Model" testId="node-model">
        {modelNameOf(view.config)}
      </NodeDetail>
    </NodeCard>
  );
});
