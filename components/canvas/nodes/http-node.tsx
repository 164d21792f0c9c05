"use client";

import { memo } from "react";
import { NodeCard, NodeDetail, type WorkflowNodeProps } from "./node-card";
import { hostOf } from "./node-formatting";
import { useNodeView } from "./use-node-view";

/** HTTP request: the method, the host it calls and the stored credential it sends, if any. */
export const HttpNode = memo(function HttpNode({ id, type, data, selected }: WorkflowNodeProps) {
  const view = useNodeView(type, data);
  const method = String(view.config.method ?? "GET");
  const url = typeof view.config.url === "string" ? view.config.url : "";
  const credential = typeof view.config.credential === "string" ? view.config.credential : "";
  return (
    <NodeCard id={id} type={type} title={data.title} selected={selected} view={view} hideSummary>
      <NodeDetail label={method} testId="node-http">
        {hostOf(url) || "no URL"}
      </NodeDetail>
      {credential && (
        <NodeDetail label="Auth" testId="node-http-credential">
          {credential}
        </NodeDetail>
      )}
    </NodeCard>
  );
});
