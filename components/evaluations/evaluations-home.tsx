"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { formatRate, requestJson } from "./request";

interface DatasetRow {
  id: string;
  name: string;
  workflowId: string | null;
  latestVersion: number;
  caseCount: number;
  updatedAt: string;
}

interface EvaluationRow {
  id: string;
  status: string;
  workflowId: string;
  workflowVersion: number | null;
  dataset: { id: string; name: string; version: number };
  trials: number;
  startedAt: string;
  totals: {
    passHatKRate: number | null;
    finishedTrials: number;
    plannedTrials: number;
    meanCost: number;
    p50LatencyMs: number;
  };
}

interface WorkflowRow {
  id: string;
  name: string;
}

/** The evaluation home: datasets, a form to evaluate a workflow version on one, and past evaluations to compare. */
export function EvaluationsHome() {
  const router = useRouter();
  const [datasets, setDatasets] = useState<DatasetRow[] | null>(null);
  const [evaluations, setEvaluations] = useState<EvaluationRow[] | null>(null);
  const [workflows, setWorkflows] = useState<WorkflowRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [form, setForm] = useState({ datasetId: "", workflowId: "", version: "draft", trials: 5, concurrency: 4 });
  const [newDataset, setNewDataset] = useState("");
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const [datasetBody, evaluationBody, workflowBody] = await Promise.all([
        requestJson<{ datasets: DatasetRow[] }>("/api/datasets"),
        requestJson<{ evaluations: EvaluationRow[] }>("/api/evaluations"),
        requestJson<{ workflows: WorkflowRow[] }>("/api/workflows"),
      ]);
      setDatasets(datasetBody.datasets);
      setEvaluations(evaluationBody.evaluations);
      setWorkflows(workflowBody.workflows);
    } catch (reason) {
      setError((reason as Error).message);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function startEvaluation(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const dataset = datasets?.find((entry) => entry.id === form.datasetId);
      const workflowId = form.workflowId || dataset?.workflowId || "";
      const version = form.version === "draft" || form.version === "latest" ? form.version : Number(form.version);
      const { evaluationId } = await requestJson<{ evaluationId: string }>("/api/evaluations", {
        method: "POST",
        body: { datasetId: form.datasetId, workflowId, version, trials: form.trials, concurrency: form.concurrency },
      });
      router.push(`/evaluations/runs/${evaluationId}`);
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
    }
  }

  async function createDataset(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const { id } = await requestJson<{ id: string }>("/api/datasets", {
        method: "POST",
        body: { name: newDataset, cases: [] },
      });
      router.push(`/evaluations/datasets/${id}`);
    } catch (reason) {
      setError((reason as Error).message);
    }
  }

  function toggle(id: string) {
    setPicked((current) =>
      current.includes(id) ? current.filter((entry) => entry !== id) : [...current, id].slice(-2),
    );
  }

  return (
    <div className="evaluations-home">
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="datasets-heading">
        <h2 id="datasets-heading">Datasets</h2>
        {!datasets && <p className="muted">Loading…</p>}
        {datasets && (
          <table className="table" data-testid="dataset-list">
            <thead>
              <tr>
                <th>Name</th>
                <th>Cases</th>
                <th>Version</th>
                <th>Changed</th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((dataset) => (
                <tr key={dataset.id} data-testid="dataset-row" data-id={dataset.id}>
                  <td>
                    <Link href={`/evaluations/datasets/${dataset.id}`}>{dataset.name}</Link>
                  </td>
                  <td>{dataset.caseCount}</td>
                  <td>v{dataset.latestVersion}</td>
                  <td>{formatRelativeTime(dataset.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form className="row" onSubmit={createDataset} aria-label="New dataset">
          <label className="field">
            <span className="field-label">New dataset</span>
            <input
              className="input"
              data-testid="new-dataset-name"
              value={newDataset}
              required
              placeholder="Name"
              onChange={(event) => setNewDataset(event.target.value)}
            />
          </label>
          <button type="submit" className="button" data-testid="new-dataset-create">
            Create
          </button>
        </form>
      </section>

      <section aria-labelledby="evaluate-heading">
        <h2 id="evaluate-heading">Evaluate</h2>
        <form
          className="row"
          onSubmit={startEvaluation}
          data-testid="evaluate-form"
          aria-label="Evaluate a workflow on a dataset"
        >
          <label className="field">
            <span className="field-label">Dataset</span>
            <select
              className="input"
              data-testid="evaluate-dataset"
              required
              value={form.datasetId}
              onChange={(event) => setForm({ ...form, datasetId: event.target.value })}
            >
              <option value="">Choose…</option>
              {datasets?.map((dataset) => (
                <option key={dataset.id} value={dataset.id}>
                  {dataset.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Workflow</span>
            <select
              className="input"
              data-testid="evaluate-workflow"
              value={form.workflowId}
              onChange={(event) => setForm({ ...form, workflowId: event.target.value })}
            >
              <option value="">The dataset's workflow</option>
              {workflows.map((workflow) => (
                <option key={workflow.id} value={workflow.id}>
                  {workflow.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Version</span>
            <input
              className="input"
              data-testid="evaluate-version"
              value={form.version}
              aria-describedby="version-hint"
              onChange={(event) => setForm({ ...form, version: event.target.value })}
            />
            <span className="field-hint" id="version-hint">
              draft, latest, or a number
            </span>
          </label>
          <label className="field">
            <span className="field-label">Trials per case (k)</span>
            <input
              className="input"
              type="number"
              min={1}
              max={20}
              data-testid="evaluate-trials"
              value={form.trials}
              onChange={(event) => setForm({ ...form, trials: Number(event.target.value) })}
            />
          </label>
          <label className="field">
            <span className="field-label">Concurrency</span>
            <input
              className="input"
              type="number"
              min={1}
              max={32}
              data-testid="evaluate-concurrency"
              value={form.concurrency}
              onChange={(event) => setForm({ ...form, concurrency: Number(event.target.value) })}
            />
          </label>
          <button type="submit" className="button button-primary" data-testid="evaluate-start" disabled={busy}>
            {busy ? "Starting…" : "Run evaluation"}
          </button>
        </form>
      </section>

      <section aria-labelledby="evaluations-heading">
        <h2 id="evaluations-heading">Evaluation runs</h2>
        <div className="row">
          <span className="muted">Pick two to compare.</span>
          {picked.length === 2 ? (
            <Link
              className="button button-primary"
              data-testid="compare-link"
              href={`/evaluations/compare?base=${picked[0]}&candidate=${picked[1]}`}
            >
              Compare
            </Link>
          ) : (
            <button type="button" className="button" disabled>
              Compare
            </button>
          )}
        </div>
        {evaluations && evaluations.length === 0 && <p className="muted">No evaluations yet.</p>}
        {evaluations && evaluations.length > 0 && (
          <table className="table" data-testid="evaluation-list">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Compare</span>
                </th>
                <th>Status</th>
                <th>Dataset</th>
                <th>Version</th>
                <th>pass^k</th>
                <th>Trials</th>
                <th>Mean cost</th>
                <th>p50</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {evaluations.map((evaluation) => (
                <tr key={evaluation.id} data-testid="evaluation-row" data-id={evaluation.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Compare evaluation of ${evaluation.dataset.name} from ${formatRelativeTime(evaluation.startedAt)}`}
                      data-testid="evaluation-pick"
                      checked={picked.includes(evaluation.id)}
                      onChange={() => toggle(evaluation.id)}
                    />
                  </td>
                  <td>
                    <Link href={`/evaluations/runs/${evaluation.id}`}>
                      <StatusBadge status={evaluation.status} />
                    </Link>
                  </td>
                  <td>
                    {evaluation.dataset.name} v{evaluation.dataset.version}
                  </td>
                  <td>{evaluation.workflowVersion === null ? "draft" : `v${evaluation.workflowVersion}`}</td>
                  <td>{formatRate(evaluation.totals.passHatKRate)}</td>
                  <td>
                    {evaluation.totals.finishedTrials}/{evaluation.totals.plannedTrials}
                  </td>
                  <td>{formatCost(evaluation.totals.meanCost)}</td>
                  <td>{formatDuration(evaluation.totals.p50LatencyMs)}</td>
                  <td>{formatRelativeTime(evaluation.startedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
