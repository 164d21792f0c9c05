"use client";

import { formatCost } from "@/components/ui/format";
import type { NodeRunView } from "@/lib/runs/node-run-view";

/** One node's totals over its attempts and iteration items. */
interface NodeUsage {
  nodeId: string;
  title: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

/** Nodes that used tokens or money, largest first. */
export function usageByNode(nodeRuns: readonly NodeRunView[]): NodeUsage[] {
  const totals = new Map<string, NodeUsage>();
  for (const nodeRun of nodeRuns) {
    const usage = totals.get(nodeRun.nodeId) ?? {
      nodeId: nodeRun.nodeId,
      title: nodeRun.title,
      tokensIn: 0,
      tokensOut: 0,
      cost: 0,
    };
    usage.tokensIn += nodeRun.tokensIn;
    usage.tokensOut += nodeRun.tokensOut;
    usage.cost += nodeRun.cost;
    totals.set(nodeRun.nodeId, usage);
  }
  return [...totals.values()]
    .filter((usage) => usage.tokensIn + usage.tokensOut > 0 || usage.cost > 0)
    .sort(
      (left, right) => right.tokensIn + right.tokensOut - (left.tokensIn + left.tokensOut) || right.cost - left.cost,
    );
}

function percent(value: number, max: number): string {
  return `${max > 0 ? Math.max((value / max) * 100, value > 0 ? 1.5 : 0) : 0}%`;
}

/**
 * Tokens (prompt and completion stacked) and cost per node as horizontal bars: plain elements
 * sized in percent of the largest node, so no chart library and the theme colours apply.
 */
export function RunUsageChart({ nodeRuns }: { nodeRuns: readonly NodeRunView[] }) {
  const rows = usageByNode(nodeRuns);
  if (rows.length === 0) {
    return (
      <p className="m-0 text-sm text-muted-foreground" data-testid="usage-chart-empty">
        No node used tokens or cost in this run.
      </p>
    );
  }
  const maxTokens = Math.max(...rows.map((row) => row.tokensIn + row.tokensOut));
  const maxCost = Math.max(...rows.map((row) => row.cost));
  return (
    <figure className="m-0 flex flex-col gap-2 text-xs" data-testid="usage-chart">
      <figcaption className="flex flex-wrap items-center gap-3 text-muted-foreground">
        <span className="font-semibold text-foreground">Tokens and cost per node</span>
        <span className="flex items-center gap-1">
          <span className="inline-block size-2.5 rounded-sm bg-primary" aria-hidden /> prompt
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block size-2.5 rounded-sm bg-primary/45" aria-hidden /> completion
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block size-2.5 rounded-sm bg-info" aria-hidden /> cost
        </span>
      </figcaption>
      <table className="w-full border-separate border-spacing-y-1">
        <thead className="sr-only">
          <tr>
            <th>Node</th>
            <th>Tokens</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const tokens = row.tokensIn + row.tokensOut;
            return (
              <tr key={row.nodeId} data-testid="usage-row" data-node-id={row.nodeId} data-tokens={tokens}>
                <th scope="row" className="w-32 max-w-32 truncate pr-2 text-left font-medium" title={row.title}>
                  {row.title}
                </th>
                <td className="pr-3">
                  <div className="flex items-center gap-2">
                    <div
                      className="flex h-3 min-w-0 flex-1 overflow-hidden rounded-sm bg-muted"
                      role="img"
                      aria-label={`${row.tokensIn} prompt and ${row.tokensOut} completion tokens`}
                    >
                      <div className="h-full bg-primary" style={{ width: percent(row.tokensIn, maxTokens) }} />
                      <div className="h-full bg-primary/45" style={{ width: percent(row.tokensOut, maxTokens) }} />
                    </div>
                    <span className="w-16 shrink-0 text-right tabular-nums">{tokens.toLocaleString()}</span>
                  </div>
                </td>
                <td className="w-2/5">
                  <div className="flex items-center gap-2">
                    <div
                      className="h-3 min-w-0 flex-1 overflow-hidden rounded-sm bg-muted"
                      role="img"
                      aria-label={`cost ${formatCost(row.cost)}`}
                    >
                      <div className="h-full bg-info" style={{ width: percent(row.cost, maxCost) }} />
                    </div>
                    <span className="w-16 shrink-0 text-right tabular-nums">{formatCost(row.cost)}</span>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}
