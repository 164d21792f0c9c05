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

/** How a mode is named in the summary (the agent node's mode labels). */
const MODE_LABELS: Record<string, string> = {
  react: "ReAct",
  function_call: "Function calling",
  function_call_legacy: "Function calling (legacy)",
  plan_execute: "Plan-and-execute",
  prompt_call: "Prompt call",
  other: "Other model nodes",
};

/** The evaluation's live stream (`GET /api/evaluations/:id/events`) folded into the page's state. */
function useEvaluationStream(evaluationId: string) {
  const [body, setBody] = useState<EvaluationBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const source = new EventSource(`/api/evaluations/${evaluationId}/events`);
    source.addEventListener("snapshot", (message) => {
      const snapshot = JSON.parse((message as MessageEvent<string>).data) as EvaluationBody;
      setError(null);
      setBody(snapshot);
      // An ended evaluation's stream closes after its snapshot; do not reconnect.
      if (snapshot.evaluation.status !== "running") source.close();
    });
    source.addEventListener("trial", (message) => {
      const change = JSON.parse((message as MessageEvent<string>).data) as {
        trial: EvaluationBody["trials"][number];
        report: EvaluationReport;
      };
      setBody((current) =>
        current ? { ...current, report: change.report, trials: [...current.trials, change.trial] } : current,
      );
    });
    source.addEventListener("end", (message) => {
      const change = JSON.parse((message as MessageEvent<string>).data) as {
        status: string;
        errorMessage: string | null;
        report: EvaluationReport;
      };
      source.close();
      setBody((current) =>
        current
          ? {
              ...current,
              report: change.report,
              evaluation: { ...current.evaluation, status: change.status, errorMessage: change.errorMessage },
            }
          : current,
      );
    });
    source.addEventListener("error", (message) => {
      // A named `error` event from the server carries data; a dropped connection does not (EventSource retries).
      const data = (message as MessageEvent<string>).data;
      if (data) setError((JSON.parse(data) as { message: string }).message);
    });
    return () => source.close();
  }, [evaluationId]);
  return { body, error };
}

/** An evaluation run: live progress while it runs (SSE), a Cancel button, then totals and per-case results with every check's reason and run links. */
export function EvaluationRunView({ evaluationId }: { evaluationId: string }) {
  // The stream's `end` event brings the cancelled state: the cancel answers once the evaluation ended.
  const { body, error } = useEvaluationStream(evaluationId);
  const [open, setOpen] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);

  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await requestJson(`/api/evaluations/${evaluationId}/cancel`, { method: "POST" });
    } catch (reason) {
      setCancelError((reason as Error).message);
    } finally {
      setCancelling(false);
    }
  };

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
      {evaluation.status === "running" && (
        <div className="row">
          <button
            type="button"
            className="button button-danger"
            data-testid="cancel-evaluation"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            {cancelling ? "Cancelling…" : "Cancel evaluation"}
          </button>
        </div>
      )}
      {cancelError && <p className="error-box">{cancelError}</p>}
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
      <ModeTokensTable tokensByMode={totals.tokensByMode ?? {}} />
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

/** Tokens per agent mode: which strategy the tokens went to (ReAct, function calling, ...). */
function ModeTokensTable({ tokensByMode }: { tokensByMode: EvaluationReport["totals"]["tokensByMode"] }) {
  const modes = Object.entries(tokensByMode).sort(([, left], [, right]) => right.totalTokens - left.totalTokens);
  if (modes.length === 0) return null;
  return (
    <table className="table" data-testid="tokens-by-mode">
      <caption className="muted">Tokens per agent mode</caption>
      <thead>
        <tr>
          <th>Mode</th>
          <th>Total tokens</th>
          <th>Trials</th>
          <th>Mean per trial</th>
        </tr>
      </thead>
      <tbody>
        {modes.map(([mode, entry]) => (
          <tr key={mode} data-testid="mode-tokens" data-id={mode}>
            <td>{MODE_LABELS[mode] ?? mode}</td>
            <td>{entry.totalTokens}</td>
            <td>{entry.trials}</td>
            <td>{Math.round(entry.meanTokens)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
