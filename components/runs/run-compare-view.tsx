"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { formatCost, formatDuration } from "@/components/ui/format";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { Stat, StatList } from "@/components/ui/stat-list";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { RunDetail } from "@/lib/runs/node-run-view";
import type { NodeSide, RunCompareResult, StepComparison } from "@/lib/runs/run-compare";
import type { FieldChange, WorkflowDiff } from "@/lib/workflow/version-diff";
import { JsonTree } from "./json-tree";
import { RunSection } from "./run-section";

/** A value in one line, shortened: diffs show where things differ, the trees below show all. */
function preview(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** Changes from run A to run B, one row per path. */
function ChangeList({ changes, testId, empty }: { changes: FieldChange[]; testId: string; empty: string }) {
  if (changes.length === 0) {
    return (
      <p className="m-0 text-xs text-muted-foreground" data-testid={testId} data-changes="0">
        {empty}
      </p>
    );
  }
  return (
    <ul className="m-0 flex list-none flex-col gap-1 p-0 text-xs" data-testid={testId} data-changes={changes.length}>
      {changes.map((change) => (
        <li key={change.path} className="grid grid-cols-[minmax(5rem,10rem)_1fr_1fr] gap-2" data-testid="change-row">
          <code className="font-medium break-all">{change.path}</code>
          <del className="rounded-xs bg-destructive/10 px-1.5 py-0.5 break-all no-underline">
            <span className="sr-only">A: </span>
            {preview(change.before)}
          </del>
          <ins className="rounded-xs bg-success/12 px-1.5 py-0.5 break-all no-underline">
            <span className="sr-only">B: </span>
            {preview(change.after)}
          </ins>
        </li>
      ))}
    </ul>
  );
}

function RunColumn({ label, detail }: { label: string; detail: RunDetail }) {
  const { run, workflow } = detail;
  const duration = run.startedAt && run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  return (
    <Card className="flex min-w-0 flex-col gap-2 p-3 text-sm" data-testid={`compare-run-${label.toLowerCase()}`}>
      <div className="flex items-center gap-2">
        <Badge tone="primary">{label}</Badge>
        <Link href={`/runs/${run.id}`} className="truncate font-mono text-xs text-primary hover:underline">
          {run.id}
        </Link>
        <StatusBadge status={run.status} />
      </div>
      <StatList className="text-xs">
        <Stat label="Workflow" className="truncate">
          {workflow?.name ?? "—"} · {workflow?.version ? `v${workflow.version}` : "draft"}
        </Stat>
        <Stat label="Started">{run.startedAt ? new Date(run.startedAt).toLocaleString() : "—"}</Stat>
        <Stat label="Duration">{formatDuration(duration)}</Stat>
        <Stat label="Tokens · cost">
          {(run.tokensIn + run.tokensOut).toLocaleString()} · {formatCost(run.cost)}
        </Stat>
      </StatList>
    </Card>
  );
}

function WorkflowDiffView({ diff }: { diff: WorkflowDiff }) {
  if (diff.identical) {
    return (
      <p className="m-0 text-xs text-muted-foreground" data-testid="version-diff" data-identical="true">
        Both runs ran the same workflow.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="version-diff" data-identical="false">
      {diff.nodes.added.map((node) => (
        <p key={`added-${node.id}`} className="m-0 flex items-center gap-1.5">
          <Badge tone="success">added</Badge> {node.title} <span className="text-muted-foreground">({node.type})</span>
        </p>
      ))}
      {diff.nodes.removed.map((node) => (
        <p key={`removed-${node.id}`} className="m-0 flex items-center gap-1.5">
          <Badge tone="destructive">removed</Badge> {node.title}{" "}
          <span className="text-muted-foreground">({node.type})</span>
        </p>
      ))}
      {diff.nodes.changed
        .filter((change) => change.fields.length > 0)
        .map((change) => (
          <div key={`changed-${change.id}`} className="flex flex-col gap-1">
            <p className="m-0 flex items-center gap-1.5">
              <Badge tone="warning">changed</Badge> {change.title}
            </p>
            <ChangeList changes={change.fields} testId="version-diff-fields" empty="" />
          </div>
        ))}
      {(diff.edges.added.length > 0 || diff.edges.removed.length > 0) && (
        <p className="m-0">
          Connections: {diff.edges.added.length} added, {diff.edges.removed.length} removed
        </p>
      )}
    </div>
  );
}

function SideCell({ side }: { side: NodeSide | null }) {
  if (!side) return <TableCell className="align-top text-xs text-muted-foreground">not run</TableCell>;
  return (
    <TableCell className="align-top">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs tabular-nums">
        <StatusBadge status={side.status} />
        <span>{formatDuration(side.durationMs)}</span>
        <span>{side.tokens.toLocaleString()} tok</span>
        <span>{formatCost(side.cost)}</span>
        {side.attempts > 1 && <span className="text-muted-foreground">×{side.attempts}</span>}
      </div>
    </TableCell>
  );
}

function StepsView({ steps }: { steps: StepComparison[] }) {
  return (
    <ol className="m-0 mt-1 flex list-none flex-col gap-1 p-0 text-xs" data-testid="compare-steps">
      {steps.map((step) => (
        <li
          key={step.index}
          className="grid grid-cols-[2rem_1fr_1fr] gap-2"
          data-testid="compare-step"
          data-same={step.same}
        >
          <span className="text-muted-foreground">#{step.index + 1}</span>
          {[step.a, step.b].map((side, column) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: two fixed columns, A then B
              key={column}
              className={cn(
                "rounded-xs px-1.5 py-0.5",
                step.same ? "bg-muted" : side ? "bg-warning/10" : "bg-muted/50",
              )}
            >
              {side ? (
                <>
                  <span className="font-medium">{side.action || "—"}</span>{" "}
                  <code className="break-all">{preview(side.input)}</code>
                  {side.observation && (
                    <p className="m-0 break-words text-muted-foreground">→ {preview(side.observation)}</p>
                  )}
                </>
              ) : (
                <span className="text-muted-foreground">no step</span>
              )}
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** Two runs side by side: both headers, the workflow diff, input/output diffs, and node by node. */
export function RunCompareView({ runIdA, runIdB }: { runIdA: string; runIdB: string }) {
  const [result, setResult] = useState<RunCompareResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    const query = new URLSearchParams({ a: runIdA, b: runIdB });
    void fetch(`/api/runs/compare?${query}`)
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as
          | (RunCompareResult & { error?: undefined })
          | { error: { message: string } }
          | null;
        if (!response.ok || !body || body.error) {
          throw new Error(body?.error?.message ?? `Could not compare the runs (${response.status}).`);
        }
        if (!stopped) setResult(body as RunCompareResult);
      })
      .catch((reason: Error) => !stopped && setError(reason.message));
    return () => {
      stopped = true;
    };
  }, [runIdA, runIdB]);

  if (error)
    return (
      <Alert tone="destructive" role="alert">
        <p>{error}</p>
      </Alert>
    );
  if (!result) return <p className="m-0 text-sm text-muted-foreground">Loading…</p>;
  const { a, b, comparison, versionDiff } = result;
  return (
    <div className="flex flex-col gap-4" data-testid="run-compare">
      <div className="grid gap-3 md:grid-cols-2">
        <RunColumn label="A" detail={a} />
        <RunColumn label="B" detail={b} />
      </div>

      <Card role="region" aria-labelledby="compare-workflow" className="flex flex-col gap-2 p-3">
        <h2 id="compare-workflow" className="m-0 text-sm font-semibold">
          Workflow
        </h2>
        <WorkflowDiffView diff={versionDiff} />
      </Card>

      <Card role="region" aria-labelledby="compare-io" className="flex flex-col gap-2 p-3">
        <h2 id="compare-io" className="m-0 text-sm font-semibold">
          Inputs and outputs
        </h2>
        <h3 className="m-0 text-xs font-semibold text-muted-foreground">Inputs (A → B)</h3>
        <ChangeList changes={comparison.inputChanges} testId="compare-inputs" empty="Same inputs." />
        <h3 className="m-0 text-xs font-semibold text-muted-foreground">Outputs (A → B)</h3>
        <ChangeList changes={comparison.outputChanges} testId="compare-outputs" empty="Same outputs." />
        <details className="text-xs">
          <summary className="cursor-pointer text-muted-foreground">Show both in full</summary>
          <div className="mt-2 grid gap-3 md:grid-cols-2">
            {[
              { label: "A", detail: a },
              { label: "B", detail: b },
            ].map(({ label, detail }) => (
              <div key={label} className="flex min-w-0 flex-col gap-3">
                <RunSection title={`${label} inputs`}>
                  <JsonTree value={detail.run.inputs} />
                </RunSection>
                <RunSection title={`${label} outputs`}>
                  <JsonTree value={detail.run.outputs} />
                </RunSection>
              </div>
            ))}
          </div>
        </details>
      </Card>

      <section aria-labelledby="compare-nodes" className="flex flex-col gap-2">
        <h2 id="compare-nodes" className="m-0 text-sm font-semibold">
          Node by node
        </h2>
        <Table data-testid="compare-nodes">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Node</TableHead>
              <TableHead>A</TableHead>
              <TableHead>B</TableHead>
              <TableHead className="w-full">Output</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {comparison.nodes.map((node) => (
              <TableRow key={node.nodeId} data-testid="compare-node" data-id={node.nodeId}>
                <TableHead scope="row" className="h-auto py-2.5 align-top text-sm font-medium text-foreground">
                  <span className="flex items-center gap-1.5">
                    <NodeTypeIcon type={node.nodeType} size="sm" />
                    {node.title}
                  </span>
                  <span className="block text-xs font-normal text-muted-foreground">{node.nodeType}</span>
                </TableHead>
                <SideCell side={node.a} />
                <SideCell side={node.b} />
                <TableCell className="min-w-64 align-top">
                  {node.a && node.b ? (
                    <ChangeList changes={node.outputChanges} testId="compare-node-output" empty="same" />
                  ) : (
                    <span className="text-xs text-muted-foreground">only in {node.a ? "A" : "B"}</span>
                  )}
                  {node.steps && node.steps.length > 0 && (
                    <details className="mt-1">
                      <summary className="cursor-pointer text-xs text-muted-foreground">
                        Agent steps ({node.steps.filter((step) => !step.same).length} differ)
                      </summary>
                      <StepsView steps={node.steps} />
                    </details>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
    </div>
  );
}
