"use client";

import { memo } from "react";
import { NodeCard, NodeNameList, namesOf, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** End: lists the run outputs it returns. */
export const EndNode = memo(function EndNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeNameList names={namesOf(view.config.outputs)} empty="No outputs" testId="node-outputs" />
    </NodeCard>
  );
});
