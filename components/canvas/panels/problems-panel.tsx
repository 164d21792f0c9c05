"use client";

import { memo } from "react";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** Every compile issue; clicking one selects its node and focuses the field. */
export const ProblemsPanel = memo(function ProblemsPanel() {
  const store = useEditorStoreApi();
  const issues = useEditorStore((state) => state.issues);
  const nodes = useEditorStore((state) => state.nodes);
  if (issues.length === 0)
    return (
      <p className="muted panel-empty" data-testid="problems-empty">
        No problems. The workflow compiles.
      </p>
    );
  const titleOf = (nodeId: string | undefined) => nodes.find((node) => node.id === nodeId)?.data.title ?? nodeId;
  return (
    <ul className="problems" data-testid="problems-list">
      {issues.map((issue) => (
        <li key={`${issue.code}-${issue.nodeId}-${issue.edgeId}-${issue.path.join(".")}-${issue.message}`}>
          <button
            type="button"
            className="problem"
            data-testid="problem-item"
            data-code={issue.code}
            data-node-id={issue.nodeId}
            onClick={() => store.getState().focusProblem(issue)}
          >
            <span className={`badge badge-${issue.severity === "error" ? "failed" : "waiting"}`}>{issue.severity}</span>
            {issue.nodeId && <b>{titleOf(issue.nodeId)}</b>}
            <span>{issue.message}</span>
            <code className="muted">{issue.code}</code>
          </button>
        </li>
      ))}
    </ul>
  );
});
