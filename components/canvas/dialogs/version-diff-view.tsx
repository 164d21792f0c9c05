"use client";

import { cn } from "@/components/ui/cn";
import type { WorkflowDiff } from "@/lib/workflow/version-diff";
import { type DiffLine, describeDiff, movedOnlyCount } from "./version-diff-lines";

const SIGNS: Record<DiffLine["kind"], string> = { added: "+", removed: "−", changed: "~" };
const TONES: Record<DiffLine["kind"], string> = {
  added: "text-success",
  removed: "text-destructive",
  changed: "text-foreground",
};
const KIND_WORDS: Record<DiffLine["kind"], string> = { added: "added", removed: "removed", changed: "changed" };

/** A diff of two versions: nodes, connections and config fields, named by node titles. */
export function VersionDiffView({ diff, titles }: { diff: WorkflowDiff; titles: Record<string, string> }) {
  const lines = describeDiff(diff, titles);
  const moved = movedOnlyCount(diff);
  return (
    <section className="mt-3 rounded-md border border-border p-3" data-testid="version-diff" aria-label="Differences">
      {lines.length === 0 ? (
        <p className="m-0 text-muted-foreground" data-testid="diff-identical">
          No differences{moved > 0 ? ` except the layout (${moved} node${moved === 1 ? "" : "s"} moved)` : ""}.
        </p>
      ) : (
        <ul className="m-0 flex list-none flex-col gap-0.5 p-0 font-mono text-sm">
          {lines.map((line, index) => (
            <li
              // Lines have no identity of their own; their order is stable for one diff.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              className={cn(
                TONES[line.kind],
                line.scope === "field" && "pl-6",
                line.scope === "node" && "font-semibold",
              )}
              data-testid="diff-line"
              data-kind={line.kind}
              data-scope={line.scope}
              data-node-id={line.nodeId}
            >
              <span aria-hidden="true">{SIGNS[line.kind]} </span>
              <span className="sr-only">
                {line.scope === "edge" ? "Connection" : line.scope === "node" ? "Node" : "Field"}{" "}
                {KIND_WORDS[line.kind]}:{" "}
              </span>
              {line.text}
            </li>
          ))}
          {moved > 0 && (
            <li className="pt-1 font-sans text-muted-foreground">
              {moved} node{moved === 1 ? "" : "s"} only moved.
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
