"use client";

import { memo } from "react";
import { NodeCard, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Condition: one labelled source handle per case plus else (the definition's outputPorts). */
export const ConditionNode = memo(function ConditionNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  return <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} />;
});
