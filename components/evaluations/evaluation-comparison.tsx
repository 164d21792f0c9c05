"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { formatCost, formatDuration } from "@/components/ui/format";
import type { EvaluationComparison } from "@/lib/evaluation/model/comparison";
import type { ReportTotals } from "@/lib/evaluation/model/report";
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

const CHANGE_BADGE: Record<string, string> = {
  fixed: "badge-succeeded",
  broken: "badge-failed",
  flaky: "badge-warning",
  unchanged: "badge-none",
  added: "badge-queued",
  removed: "badge-queued",
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
  if (error) return <p className="error-box">{error}</p>;
  if (!body) return <p className="muted">Loading…</p>;
  const { comparison } = body;
  return (
    <div className="evaluation-comparison" data-testid="evaluation-comparison">
      <p>
        <Link href={`/evaluations/runs/${body.base.id}`}>{label(body.base)}</Link> →{" "}
        <Link href={`/evaluations/runs/${body.candidate.id}`}>{label(body.candidate)}</Link> on{" "}
        {body.candidate.dataset.name}
      </p>
      <dl className="stats" data-testid="comparison-totals">
        <dt>pass^k</dt>
        <dd data-testid="delta-pass-hat-k">
          {formatRate(body.baseTotals.passHatKRate)} → {formatRate(body.candidateTotals.passHatKRate)} (
          {formatRateDelta(comparison.passHatKDelta)})
        </dd>
        <dt>Mean cost</dt>
        <dd>{signedCost(comparison.meanCostDelta)}</dd>
        <dt>Latency p50 / p95</dt>
        <dd>
          {signedMs(comparison.p50LatencyDelta)} / {signedMs(comparison.p95LatencyDelta)}
        </dd>
        <dt>Mean tokens</dt>
        <dd>{Math.round(comparison.meanTokensDelta)}</dd>
        <dt>Cases</dt>
        <dd data-testid="comparison-counts">
          {comparison.counts.fixed} fixed, {comparison.counts.broken} broken, {comparison.counts.flaky} flaky,{" "}
          {comparison.counts.unchanged} unchanged
        </dd>
      </dl>
      <table className="table" data-testid="comparison-cases">
        <thead>
          <tr>
            <th>Case</th>
            <th>Change</th>
            <th>Before</th>
            <th>After</th>
            <th>Cost Δ</th>
            <th>Latency Δ</th>
          </tr>
        </thead>
        <tbody>
          {comparison.cases.map((entry) => (
            <tr key={entry.caseId} data-testid="comparison-case" data-id={entry.caseId} data-change={entry.change}>
              <td>
                <strong>{entry.caseId}</strong> {entry.name && <span className="muted">{entry.name}</span>}
              </td>
              <td>
                <span className={`badge ${CHANGE_BADGE[entry.change]}`}>{entry.change}</span>
              </td>
              <td>{entry.basePasses}</td>
              <td>{entry.candidatePasses}</td>
              <td>{signedCost(entry.costDelta)}</td>
              <td>{signedMs(entry.latencyDelta)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
