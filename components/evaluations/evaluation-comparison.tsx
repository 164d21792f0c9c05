"use client";

import { ArrowRightIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { formatCost, formatDuration } from "@/components/ui/format";
import { Stat, StatList } from "@/components/ui/stat-list";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import type { EvaluationComparison } from "@/lib/evaluation/model/comparison";
import type { ReportTotals } from "@/lib/evaluation/model/report";
import { LoadStatus } from "./load-status";
import { formatRate, formatRateDelta, requestJson } from "./request";

interface Side {
  id: string;
  workflowName: string;
  workflowVersion: number | null;
  dataset: { name: string; version: number };
}

interface ComparisonBody {
  base: Side;
  candidate: Side;
  baseTotals: ReportTotals;
  candidateTotals: ReportTotals;
  comparison: EvaluationComparison;
}

function label(side: Side): string {
  return `${side.workflowName} ${side.workflowVersion === null ? "draft" : `v${side.workflowVersion}`}`;
}

function signedMs(value: number | null): string {
  if (value === null) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${formatDuration(Math.abs(value))}`;
}

function signedCost(value: number | null): string {
  if (value === null) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${formatCost(Math.abs(value))}`;
}

/** The badge tone of each kind of change: fixed reads good, broken bad, flaky a warning. */
const CHANGE_TONE: Record<string, "success" | "destructive" | "warning" | "neutral" | "info"> = {
  fixed: "success",
  broken: "destructive",
  flaky: "warning",
  unchanged: "neutral",
  added: "info",
  removed: "info",
};

/** Two evaluation runs side by side: which cases were fixed, broke or became flaky, and the deltas. */
export function EvaluationComparisonView({ baseId, candidateId }: { baseId: string; candidateId: string }) {
  const [body, setBody] = useState<ComparisonBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    requestJson<ComparisonBody>(
      `/api/evaluations/compare?base=${encodeURIComponent(baseId)}&candidate=${encodeURIComponent(candidateId)}`,
    )
      .then(setBody)
      .catch((reason: Error) => setError(reason.message));
  }, [baseId, candidateId]);
  if (error || !body) return <LoadStatus error={error} />;
  const { comparison } = body;
  return (
    <div className="flex flex-col gap-4" data-testid="evaluation-comparison">
      <p className="m-0 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm">
        <Link href={`/evaluations/runs/${body.base.id}`} className="font-medium">
          {label(body.base)}
        </Link>
        <ArrowRightIcon className="size-4 text-muted-foreground" aria-hidden="true" />
        <span className="sr-only">compared with</span>
        <Link href={`/evaluations/runs/${body.candidate.id}`} className="font-medium">
          {label(body.candidate)}
        </Link>
        <span className="text-muted-foreground">on {body.candidate.dataset.name}</span>
      </p>
      <StatList layout="cards" data-testid="comparison-totals">
        <Stat label="pass^k" data-testid="delta-pass-hat-k">
          {formatRate(body.baseTotals.passHatKRate)} → {formatRate(body.candidateTotals.passHatKRate)} (
          {formatRateDelta(comparison.passHatKDelta)})
        </Stat>
        <Stat label="Mean cost">{signedCost(comparison.meanCostDelta)}</Stat>
        <Stat label="Latency p50 / p95">
          {signedMs(comparison.p50LatencyDelta)} / {signedMs(comparison.p95LatencyDelta)}
        </Stat>
        <Stat label="Mean tokens">{Math.round(comparison.meanTokensDelta)}</Stat>
        <Stat label="Cases" className="text-sm font-medium" data-testid="comparison-counts">
          {comparison.counts.fixed} fixed, {comparison.counts.broken} broken, {comparison.counts.flaky} flaky,{" "}
          {comparison.counts.unchanged} unchanged
        </Stat>
      </StatList>
      <Table data-testid="comparison-cases">
        <TableHeadRow columns={["Case", "Change", "Before", "After", "Cost Δ", "Latency Δ"]} />
        <TableBody>
          {comparison.cases.map((entry) => (
            <TableRow
              key={entry.caseId}
              data-testid="comparison-case"
              data-id={entry.caseId}
              data-change={entry.change}
            >
              <TableCell>
                <span className="font-medium">{entry.caseId}</span>{" "}
                {entry.name && <span className="text-muted-foreground">{entry.name}</span>}
              </TableCell>
              <TableCell>
                <Badge tone={CHANGE_TONE[entry.change] ?? "neutral"}>{entry.change}</Badge>
              </TableCell>
              <TableCell className="tabular-nums">{entry.basePasses}</TableCell>
              <TableCell className="tabular-nums">{entry.candidatePasses}</TableCell>
              <TableCell className="tabular-nums">{signedCost(entry.costDelta)}</TableCell>
              <TableCell className="tabular-nums">{signedMs(entry.latencyDelta)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
