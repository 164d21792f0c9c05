"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { formatCost, formatDuration } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { CheckResult } from "@/lib/evaluation/checks/check-result";
import type { EvaluationReport } from "@/lib/evaluation/model/report";
import { formatRate, requestJson } from "./request";

interface EvaluationBody {
  evaluation: {
    id: string;
    status: string;
    workflowId: string;
    workflowName: string;
    workflowVersion: number | null;
    trials: number;
    concurrency: number;
    errorMessage: string | null;
    dataset: { id: string; name: string; version: number };
  };
  report: EvaluationReport;
  trials: {
    caseId: string;
    trial: number;
    runId: string | null;
    passed: boolean;
    status: string;
    checks: CheckResult[];
    cost: number;
    latencyMs: number;
  }[];
}

/** How often a running evaluation is polled for progress. */
const POLL_MS = 1000;

/** An evaluation run: live progress while it runs, then totals and per-case results with every check's reason and run links. */
export function EvaluationRunView({ evaluationId }: { evaluationId: string }) {
  const [body, setBody] = useState<EvaluationBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const loaded = await requestJson<EvaluationBody>(`/api/evaluations/${evaluationId}`);
        if (stopped) return;
        setBody(loaded);
        if (loaded.evaluation.status === "running") timer = setTimeout(poll, POLL_MS);
      } catch (reason) {
        setError((reason as Error).message);
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [evaluationId]);

  if (error) return <p className="error-box">{error}</p>;
  if (!body) return <p className="muted">Loading…</p>;
  const { evaluation, report } = body;
  const totals = report.totals;
  return (
    <div className="evaluation-run" data-testid="evaluation-run" data-status={evaluation.status}>
      <p>
        <StatusBadge status={evaluation.status} testId="evaluation-status" />{" "}
        <Link href={`/workflows/${evaluation.workflowId}`}>{evaluation.workflowName}</Link>{" "}
        {evaluation.workflowVersion === null ? "draft" : `v${evaluation.workflowVersion}`} on{" "}
        <Link href={`/evaluations/datasets/${evaluation.dataset.id}`}>
          {evaluation.dataset.name} v{evaluation.dataset.version}
        </Link>
        , k = {report.k}, concurrency {evaluation.concurrency}
      </p>
      {evaluation.errorMessage && <p className="error-box">{evaluation.errorMessage}</p>}
      <progress
        className="evaluation-progress"
        data-testid="evaluation-progress"
        max={totals.plannedTrials}
        value={totals.finishedTrials}
        aria-label={`${totals.finishedTrials} of ${totals.plannedTrials} trials finished`}
      />
      <dl className="stats" data-testid="evaluation-totals">
        <dt>pass^k</dt>
        <dd data-testid="total-pass-hat-k">{formatRate(totals.passHatKRate)}</dd>
        <dt>pass@k</dt>
        <dd>{formatRate(totals.passAtKRate)}</dd>
        <dt>Trials passed</dt>
        <dd>{formatRate(totals.trialPassRate)}</dd>
        <dt>Trials</dt>
        <dd>
          {totals.finishedTrials}/{totals.plannedTrials}
        </dd>
        <dt>Mean cost</dt>
        <dd>{formatCost(totals.meanCost)}</dd>
        <dt>Latency p50 / p95</dt>
        <dd>
          {formatDuration(totals.p50LatencyMs)} / {formatDuration(totals.p95LatencyMs)}
        </dd>
        <dt>Mean tokens</dt>
        <dd>{Math.round(totals.meanTokens)}</dd>
      </dl>
      <table className="table" data-testid="case-results">
        <thead>
          <tr>
            <th>Case</th>
            <th>Passed</th>
            <th>pass^k</th>
            <th>pass@k</th>
            <th>Mean cost</th>
            <th>Mean latency</th>
            <th>
              <span className="sr-only">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {report.cases.map((entry) => (
            <CaseRows
              key={entry.caseId}
              entry={entry}
              trials={body.trials.filter((trial) => trial.caseId === entry.caseId)}
              open={open === entry.caseId}
              onToggle={() => setOpen(open === entry.caseId ? null : entry.caseId)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CaseRows({
  entry,
  trials,
  open,
  onToggle,
}: {
  entry: EvaluationReport["cases"][number];
  trials: EvaluationBody["trials"];
  open: boolean;
  onToggle: () => void;
}) {
  const verdict =
    entry.passHatK === 1 ? "succeeded" : entry.passAtK === 1 ? "partial" : entry.passHatK === 0 ? "failed" : "running";
  return (
    <>
      <tr data-testid="case-result" data-id={entry.caseId} data-pass-hat-k={entry.passHatK ?? ""}>
        <td>
          <strong>{entry.caseId}</strong> {entry.name && <span className="muted">{entry.name}</span>}
        </td>
        <td>
          <span className={`badge badge-${verdict}`}>
            {entry.passes}/{entry.trials}
          </span>
        </td>
        <td>{entry.passHatK ?? "—"}</td>
        <td>{entry.passAtK ?? "—"}</td>
        <td>{formatCost(entry.meanCost)}</td>
        <td>{formatDuration(entry.meanLatencyMs)}</td>
        <td>
          <button
            type="button"
            className="button button-small"
            aria-expanded={open}
            onClick={onToggle}
            data-testid="case-toggle"
          >
            {open ? "Hide trials" : "Trials"}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={7}>
            <ul className="evaluation-trials" data-testid="case-trials">
              {trials
                .sort((left, right) => left.trial - right.trial)
                .map((trial) => (
                  <li key={trial.trial} data-testid="trial" data-passed={trial.passed}>
                    Trial {trial.trial}: <StatusBadge status={trial.passed ? "succeeded" : "failed"} />{" "}
                    {trial.runId ? <Link href={`/runs/${trial.runId}`}>run {trial.runId.slice(-8)}</Link> : "no run"} ·{" "}
                    {trial.status} · {formatDuration(trial.latencyMs)} · {formatCost(trial.cost)}
                    <ul>
                      {trial.checks.map((check) => (
                        <li key={check.name} data-testid="check-result" data-passed={check.passed}>
                          {check.passed ? "✓" : "✗"} <code>{check.name}</code> ({check.kind}): {check.reason}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
            </ul>
          </td>
        </tr>
      )}
    </>
  );
}
