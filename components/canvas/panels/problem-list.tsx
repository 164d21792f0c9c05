"use client";

import { Badge } from "@/components/ui/badge";
import type { CanvasIssue } from "../store/types";

/**
 * Compile issues as a list of buttons: the node's title, the message and the code, optionally
 * the severity; clicking one calls `onSelect` (select the node, focus the field). The Problems
 * panel and the Publish dialog's refusal list it the same way.
 */
export function ProblemList({
  issues,
  titleOf,
  onSelect,
  showSeverity = false,
  listTestId,
  itemTestId,
}: {
  issues: readonly CanvasIssue[];
  /** A node's title (people know titles, not ids). */
  titleOf: (nodeId: string) => string;
  onSelect: (issue: CanvasIssue) => void;
  showSeverity?: boolean;
  listTestId: string;
  itemTestId: string;
}) {
  return (
    <ul className="m-0 flex list-none flex-col p-0" data-testid={listTestId}>
      {issues.map((issue) => (
        <li key={`${issue.code}-${issue.nodeId}-${issue.edgeId}-${issue.path.join(".")}-${issue.message}`}>
          <button
            type="button"
            className="flex w-full items-center gap-2 rounded-sm px-1.5 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/40"
            data-testid={itemTestId}
            data-code={issue.code}
            data-node-id={issue.nodeId}
            onClick={() => onSelect(issue)}
          >
            {showSeverity && (
              <Badge tone={issue.severity === "error" ? "destructive" : "warning"}>{issue.severity}</Badge>
            )}
            {issue.nodeId && <span className="shrink-0 font-semibold">{titleOf(issue.nodeId)}</span>}
            <span className="min-w-0 flex-1">{issue.message}</span>
            <code className="shrink-0 text-xs text-muted-foreground">{issue.code}</code>
          </button>
        </li>
      ))}
    </ul>
  );
}
