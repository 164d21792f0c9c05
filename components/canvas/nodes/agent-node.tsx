"use client";

import { memo } from "react";
import { modelNameOf, NodeCard, NodeDetail, NodeSummary, type WorkflowNodeProps } from "./node-card";
import { useNodeView } from "./use-node-view";

/** Agent: its query, model, mode and how many tools it may call. */
export const AgentNode = memo(function AgentNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const tools = Array.isArray(view.config.tools) ? view.config.tools.length : 0;
  const query = typeof view.config.query === "string" ? view.config.query.trim() : "";
  // The definition's summary repeats mode and tools; the details say them, so only the query stays.
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeSummary>{query || "No query"}</NodeSummary>
      <NodeDetail label="Model" testId="node-model">
        {modelNameOf(view.config)}
      </NodeDetail>
      <NodeDetail label="Mode" testId="node-agent-mode">
        {String(view.config.mode ?? "auto")} · {tools} tool{tools === 1 ? "" : "s"}
      </NodeDetail>
    </NodeCard>
  );
});
