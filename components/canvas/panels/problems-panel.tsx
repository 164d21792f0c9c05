"use client";

import { CircleCheckIcon } from "lucide-react";
import { memo } from "react";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import { ProblemList } from "./problem-list";

/** Every compile issue; clicking one selects its node and focuses the field. */
export const ProblemsPanel = memo(function ProblemsPanel() {
  const store = useEditorStoreApi();
  const issues = useEditorStore((state) => state.issues);
  const nodes = useEditorStore((state) => state.nodes);
  if (issues.length === 0)
    return (
      <p className="m-0 flex items-center gap-2 p-3 text-sm text-muted-foreground" data-testid="problems-empty">
        <CircleCheckIcon aria-hidden className="size-4 text-success" />
        No problems. The workflow compiles.
      </p>
    );
  const titleOf = (nodeId: string) => nodes.find((node) => node.id === nodeId)?.data.title ?? nodeId;
  return (
    <ProblemList
      issues={issues}
      titleOf={titleOf}
      onSelect={(issue) => store.getState().focusProblem(issue)}
      showSeverity
      listTestId="problems-list"
      itemTestId="problem-item"
    />
  );
});
