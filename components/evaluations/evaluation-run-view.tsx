"use client";

import { ChevronDownIcon, ChevronRightIcon, CircleCheckIcon, CircleXIcon, SquareIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCost, formatDuration } from "@/components/ui/format";
import { Progress } from "@/components/ui/progress";
import { Stat, StatList } from "@/components/ui/stat-list";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import type { CheckResult } from "@/lib/evaluation/checks/check-result";
import type { EvaluationReport } from "@/lib/evaluation/model/report";
import { LoadStatus } from "./load-status";
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

  if (error || !body) return <LoadStatus error={error} />;
  const { evaluation, report } = body;
  const totals = report.totals;
  return (
    <div className="flex flex-col gap-4" data-testid="evaluation-run" data-status={evaluation.status}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="m-0 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm">
          <StatusBadge status={evaluation.status} testId="evaluation-status" />
          <Link href={`/workflows/${evaluation.workflowId}`} className="font-medium">
            {evaluation.workflowName}
          </Link>
          {evaluation.workflowVersion === null ? "draft" : `v${evaluation.workflowVersion}`} on
          <Link href={`/evaluations/datasets/${evaluation.dataset.id}`} className="font-medium">
            {evaluation.dataset.name} v{evaluation.dataset.version}
          </Link>
          <span className="text-muted-foreground">
            · k = {report.k} · concurrency {evaluation.concurrency}
          </span>
        </p>
        {evaluation.status === "running" && (
          <Button
            variant="destructive"
            data-testid="cancel-evaluation"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            <SquareIcon /> {cancelling ? "Cancelling…" : "Cancel evaluation"}
          </Button>
        )}
      </div>
      {evaluation.errorMessage && <Alert tone="destructive">{evaluation.errorMessage}</Alert>}
      {cancelError && (
        <Alert tone="destructive" role="alert">
          {cancelError}
        </Alert>
      )}
      <div className="flex items-center gap-3">
        <Progress
          data-testid="evaluation-progress"
          max={totals.plannedTrials}
          value={totals.finishedTrials}
          aria-label={`${totals.finishedTrials} of ${totals.plannedTrials} trials finished`}
        />
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
          {totals.finishedTrials}/{totals.plannedTrials} trials
        </span>
      </div>
      <StatList layout="cards" data-testid="evaluation-totals">
        <Stat label="pass^k" data-testid="total-pass-hat-k">
          {formatRate(totals.passHatKRate)}
        </Stat>
        <Stat label="pass@k">{formatRate(totals.passAtKRate)}</Stat>
        <Stat label="Trials passed">{formatRate(totals.trialPassRate)}</Stat>
        <Stat label="Trials">
          {totals.finishedTrials}/{totals.plannedTrials}
        </Stat>
        <Stat label="Mean cost">{formatCost(totals.meanCost)}</Stat>
        <Stat label="Latency p50 / p95">
          {formatDuration(totals.p50LatencyMs)} / {formatDuration(totals.p95LatencyMs)}
        </Stat>
        <Stat label="Mean tokens">{Math.round(totals.meanTokens)}</Stat>
      </StatList>
      <ModeTokensTable tokensByMode={totals.tokensByMode ?? {}} />
      <section className="flex flex-col gap-2" aria-labelledby="case-results-heading">
        <h2 id="case-results-heading" className="m-0 text-base font-semibold">
          Cases
        </h2>
        <Table data-testid="case-results">
          <TableHeadRow columns={["Case", "Passed", "pass^k", "pass@k", "Mean cost", "Mean latency"]} actions />
          <TableBody>
            {report.cases.map((entry) => (
              <CaseRows
                key={entry.caseId}
                entry={entry}
                trials={body.trials.filter((trial) => trial.caseId === entry.caseId)}
                open={open === entry.caseId}
                onToggle={() => setOpen(open === entry.caseId ? null : entry.caseId)}
              />
            ))}
          </TableBody>
        </Table>
      </section>
    </div>
  );
}

/** How a case's pass counts read at a glance: all trials passed, some did, none did, or not known yet. */
function verdictTone(entry: EvaluationReport["cases"][number]): "success" | "warning" | "destructive" | "info" {
  if (entry.passHatK === 1) return "success";
  if (entry.passAtK === 1) return "warning";
  return entry.passHatK === 0 ? "destructive" : "info";
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
  return (
    <>
      <TableRow data-testid="case-result" data-id={entry.caseId} data-pass-hat-k={entry.passHatK ?? ""}>
        <TableCell>
          <span className="font-medium">{entry.caseId}</span>{" "}
          {entry.name && <span className="text-muted-foreground">{entry.name}</span>}
        </TableCell>
        <TableCell>
          <Badge tone={verdictTone(entry)}>
            {entry.passes}/{entry.trials}
          </Badge>
        </TableCell>
        <TableCell className="tabular-nums">{entry.passHatK ?? "—"}</TableCell>
        <TableCell className="tabular-nums">{entry.passAtK ?? "—"}</TableCell>
        <TableCell className="tabular-nums">{formatCost(entry.meanCost)}</TableCell>
        <TableCell className="tabular-nums">{formatDuration(entry.meanLatencyMs)}</TableCell>
        <TableCell className="w-px text-right">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={open}
            aria-label={`${open ? "Hide" : "Show"} the trials of ${entry.caseId}`}
            onClick={onToggle}
            data-testid="case-toggle"
          >
            {open ? <ChevronDownIcon /> : <ChevronRightIcon />}
            {open ? "Hide trials" : "Trials"}
          </Button>
        </TableCell>
      </TableRow>
      {open && (
        <TableRow className="bg-muted/30 hover:bg-muted/30">
          <TableCell colSpan={7}>
            <ol className="m-0 flex list-none flex-col gap-3 p-0" data-testid="case-trials">
              {trials
                .sort((left, right) => left.trial - right.trial)
                .map((trial) => (
                  <li key={trial.trial} className="flex flex-col gap-1" data-testid="trial" data-passed={trial.passed}>
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                      <span className="font-medium">Trial {trial.trial}</span>
                      <StatusBadge status={trial.passed ? "succeeded" : "failed"} />
                      {trial.runId ? (
                        <Link href={`/runs/${trial.runId}`}>run {trial.runId.slice(-8)}</Link>
                      ) : (
                        <span className="text-muted-foreground">no run</span>
                      )}
                      <span className="text-muted-foreground">
                        · {trial.status} · {formatDuration(trial.latencyMs)} · {formatCost(trial.cost)}
                      </span>
                    </div>
                    <ul className="m-0 flex list-none flex-col gap-0.5 p-0 pl-1 text-sm">
                      {trial.checks.map((check) => (
                        <li
                          key={check.name}
                          className="flex items-start gap-1.5"
                          data-testid="check-result"
                          data-passed={check.passed}
                        >
                          {check.passed ? (
                            <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                          ) : (
                            <CircleXIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                          )}
                          <span className="sr-only">{check.passed ? "Passed:" : "Failed:"}</span>
                          <span className="min-w-0">
                            <code className="text-xs">{check.name}</code>{" "}
                            <span className="text-muted-foreground">({check.kind})</span>: {check.reason}
                          </span>
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
            </ol>
          </TableCell>
        </TableRow>
      )}
    </>
  );
}

/** Tokens per agent mode: which strategy the tokens went to (ReAct, function calling, ...). */
function ModeTokensTable({ tokensByMode }: { tokensByMode: EvaluationReport["totals"]["tokensByMode"] }) {
  const modes = Object.entries(tokensByMode).sort(([, left], [, right]) => right.totalTokens - left.totalTokens);
  if (modes.length === 0) return null;
  return (
    <section className="flex flex-col gap-2" aria-labelledby="tokens-by-mode-heading">
      <h2 id="tokens-by-mode-heading" className="m-0 text-base font-semibold">
        Tokens per agent mode
      </h2>
      <Table data-testid="tokens-by-mode">
        <TableHeadRow columns={["Mode", "Total tokens", "Trials", "Mean per trial"]} />
        <TableBody>
          {modes.map(([mode, entry]) => (
            <TableRow key={mode} data-testid="mode-tokens" data-id={mode}>
              <TableCell>{MODE_LABELS[mode] ?? mode}</TableCell>
              <TableCell className="tabular-nums">{entry.totalTokens}</TableCell>
              <TableCell className="tabular-nums">{entry.trials}</TableCell>
              <TableCell className="tabular-nums">{Math.round(entry.meanTokens)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
