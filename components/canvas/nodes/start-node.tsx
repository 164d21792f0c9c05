"use client";

import { memo } from "react";
import { NodeCard, NodeNameList, namesOf, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Start: lists the run inputs it declares. */
export const StartNode = memo(function StartNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeNameList names={namesOf(view.config.inputs)} empty="No inputs" testId="node-inputs" />
    </NodeCard>
  );
});
