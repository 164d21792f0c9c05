"use client";

import { memo } from "react";
import { useNodeIssues } from "../store/use-node-entry";

/** Compile issues of one node; the selector returns a stable array, so unchanged nodes skip rendering. */
export const NodeIssues = memo(function NodeIssues({ nodeId }: { nodeId: string }) {
  const issues = useNodeIssues(nodeId);
  if (!issues || issues.length === 0) return null;
  const errors = issues.filter((issue) => issue.severity === "error").length;
  return (
    <div className={errors > 0 ? "node-issues node-issues-error" : "node-issues"} data-testid="node-issues">
      {issues.slice(0, 2).map((issue) => (
        <div key={`${issue.code}-${issue.path.join(".")}-${issue.message}`} title={issue.message}>
          ⚠ {issue.message}
        </div>
      ))}
      {issues.length > 2 && <div>+{issues.length - 2} more</div>}
    </div>
  );
});
