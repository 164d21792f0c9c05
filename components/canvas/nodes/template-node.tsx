"use client";

import { memo } from "react";
import { NodeCard, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Template: the template excerpt (the summary) is all it needs. */
export const TemplateNode = memo(function TemplateNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  return <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} />;
});
