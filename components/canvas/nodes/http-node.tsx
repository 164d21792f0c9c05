"use client";

import { memo } from "react";
import { NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { hostOf } from "./node-formatting";
import { useNodeView } from "./use-node-view";

/** HTTP request: the method and the host it calls. */
export const HttpNode = memo(function HttpNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const method = String(view.config.method ?? "GET");
  const url = typeof view.config.url === "string" ? view.config.url : "";
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeDetail label={method} testId="node-http">
        {hostOf(url) || "no URL"}
      </NodeDetail>
    </NodeCard>
  );
});
