"use client";

import { memo } from "react";
import { NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Tool call: the tool name, or the template choosing it per item (`{{item.tool}}`). */
export const ToolNode = memo(function ToolNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const tool = typeof view.config.tool === "string" ? view.config.tool.trim() : "";
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeDetail label={tool.includes("{{") ? "Tool from" : "Tool"} testId="node-tool">
        <code>{tool || "none chosen"}</code>
      </NodeDetail>
    </NodeCard>
  );
});
