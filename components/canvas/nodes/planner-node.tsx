"use client";

import { memo } from "react";
import { modelNameOf, NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Planner: the model and how many tools the plan may use. */
export const PlannerNode = memo(function PlannerNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const tools = Array.isArray(view.config.tools) ? view.config.tools.length : 0;
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view}>
      <NodeDetail label="Model" testId="node-model">
        {modelNameOf(view.config)} · {tools} tool{tools === 1 ? "" : "s"}
      </NodeDetail>
    </NodeCard>
  );
});
