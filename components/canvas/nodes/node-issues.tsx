"use client";

import { TriangleAlertIcon } from "lucide-react";
import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { useNodeIssues } from "../store/use-node-entry";

/** Compile issues of one node; the selector returns a stable array, so unchanged nodes skip rendering. */
export const NodeIssues = memo(function NodeIssues({ nodeId }: { nodeId: string }) {
  const issues = useNodeIssues(nodeId);
  if (!issues || issues.length === 0) return null;
  const errors = issues.filter((issue) => issue.severity === "error").length;
  return (
    <div
      className={cn(
        "node-issues mt-2 flex flex-col gap-0.5 rounded-sm px-1.5 py-1 text-2xs text-foreground",
        errors > 0 ? "node-issues-error bg-destructive/10" : "bg-warning/12",
      )}
      data-testid="node-issues"
    >
      {issues.slice(0, 2).map((issue) => (
        <div
          key={`${issue.code}-${issue.path.join(".")}-${issue.message}`}
          title={issue.message}
          className="flex items-center gap-1 truncate"
        >
          <TriangleAlertIcon
            className={cn("size-3 shrink-0", errors > 0 ? "text-destructive" : "text-warning")}
            aria-hidden="true"
          />
          <span className="truncate">{issue.message}</span>
        </div>
      ))}
      {issues.length > 2 && <div className="text-muted-foreground">+{issues.length - 2} more</div>}
    </div>
  );
});
