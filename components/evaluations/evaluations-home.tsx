"use client";

import { GitCompareArrowsIcon, PlayIcon, PlusIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import { FieldHint } from "@/components/ui/field-hint";
import { FormField } from "@/components/ui/form-field";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { SectionCard } from "@/components/ui/section-card";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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
  const setCount = (name: "trials" | "concurrency", value: number) => setForm({ ...form, [name]: value });
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
    <div className="flex flex-col gap-4">
      {error && (
        <Alert tone="destructive" role="alert">
          {error}
        </Alert>
      )}
      <SectionCard
        titleId="datasets-heading"
        title="Datasets"
        description="Cases with inputs and checks; each save is a new version."
        contentClassName="flex flex-col gap-4"
      >
        {!datasets && <p className="m-0 text-sm text-muted-foreground">Loading…</p>}
        {datasets && datasets.length === 0 && <EmptyState>No datasets yet.</EmptyState>}
        {datasets && datasets.length > 0 && (
          <Table data-testid="dataset-list">
            <TableHeadRow columns={["Name", "Cases", "Version", "Changed"]} />
            <TableBody>
              {datasets.map((dataset) => (
                <TableRow key={dataset.id} data-testid="dataset-row" data-id={dataset.id}>
                  <TableCell>
                    <Link href={`/evaluations/datasets/${dataset.id}`} className="font-medium">
                      {dataset.name}
                    </Link>
                  </TableCell>
                  <TableCell className="tabular-nums">{dataset.caseCount}</TableCell>
                  <TableCell>v{dataset.latestVersion}</TableCell>
                  <TableCell>{formatRelativeTime(dataset.updatedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <form className="flex flex-col gap-1.5" onSubmit={createDataset} aria-label="New dataset">
          <Label htmlFor="new-dataset-name">New dataset</Label>
          <div className="flex max-w-md gap-2">
            <Input
              id="new-dataset-name"
              data-testid="new-dataset-name"
              value={newDataset}
              required
              placeholder="Name"
              onChange={(event) => setNewDataset(event.target.value)}
            />
            <Button type="submit" data-testid="new-dataset-create">
              <PlusIcon /> Create
            </Button>
          </div>
        </form>
      </SectionCard>

      <SectionCard
        titleId="evaluate-heading"
        title="Evaluate"
        description="Run every case of a dataset k times against a workflow version."
      >
        <form
          className="grid items-start gap-x-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
          onSubmit={startEvaluation}
          data-testid="evaluate-form"
          aria-label="Evaluate a workflow on a dataset"
        >
          <FormField id="evaluate-dataset" label="Dataset" errorTestId="evaluate-error-dataset">
            <NativeSelect
              id="evaluate-dataset"
              data-testid="evaluate-dataset"
              required
              value={form.datasetId}
              onChange={(event) => setForm({ ...form, datasetId: event.target.value })}
              options={datasets?.map((dataset) => ({ value: dataset.id, label: dataset.name }))}
            >
              <option value="">Choose…</option>
            </NativeSelect>
          </FormField>
          <FormField id="evaluate-workflow" label="Workflow" errorTestId="evaluate-error-workflow">
            <NativeSelect
              id="evaluate-workflow"
              data-testid="evaluate-workflow"
              value={form.workflowId}
              onChange={(event) => setForm({ ...form, workflowId: event.target.value })}
              options={workflows.map((workflow) => ({ value: workflow.id, label: workflow.name }))}
            >
              <option value="">The dataset's workflow</option>
            </NativeSelect>
          </FormField>
          <FormField id="evaluate-version" label="Version" errorTestId="evaluate-error-version">
            <Input
              id="evaluate-version"
              data-testid="evaluate-version"
              value={form.version}
              aria-describedby="version-hint"
              onChange={(event) => setForm({ ...form, version: event.target.value })}
            />
            <FieldHint id="version-hint">draft, latest, or a number</FieldHint>
          </FormField>
          <CountField name="trials" label="Trials per case (k)" max={20} value={form.trials} onChange={setCount} />
          <CountField name="concurrency" label="Concurrency" max={32} value={form.concurrency} onChange={setCount} />
          <Button
            type="submit"
            variant="primary"
            className="mb-3 self-start justify-self-start sm:mt-6"
            data-testid="evaluate-start"
            disabled={busy}
          >
            <PlayIcon /> {busy ? "Starting…" : "Run evaluation"}
          </Button>
        </form>
      </SectionCard>

      <SectionCard
        titleId="evaluations-heading"
        title="Evaluation runs"
        description="Pick two to compare."
        actions={
          picked.length === 2 ? (
            <Link
              className={buttonVariants({ variant: "primary" })}
              data-testid="compare-link"
              href={`/evaluations/compare?base=${picked[0]}&candidate=${picked[1]}`}
            >
              <GitCompareArrowsIcon aria-hidden="true" /> Compare
            </Link>
          ) : (
            <Button disabled>
              <GitCompareArrowsIcon /> Compare
            </Button>
          )
        }
      >
        {!evaluations && <p className="m-0 text-sm text-muted-foreground">Loading…</p>}
        {evaluations && evaluations.length === 0 && <EmptyState>No evaluations yet.</EmptyState>}
        {evaluations && evaluations.length > 0 && (
          <Table data-testid="evaluation-list">
            <TableHeadRow
              columns={[
                { label: <span className="sr-only">Compare</span>, className: "w-px" },
                "Status",
                "Dataset",
                "Version",
                "pass^k",
                "Trials",
                "Mean cost",
                "p50",
                "Started",
              ]}
            />
            <TableBody>
              {evaluations.map((evaluation) => (
                <TableRow
                  key={evaluation.id}
                  data-testid="evaluation-row"
                  data-id={evaluation.id}
                  data-state={picked.includes(evaluation.id) ? "selected" : undefined}
                >
                  <TableCell>
                    <Checkbox
                      className="align-middle"
                      aria-label={`Compare evaluation of ${evaluation.dataset.name} from ${formatRelativeTime(evaluation.startedAt)}`}
                      data-testid="evaluation-pick"
                      checked={picked.includes(evaluation.id)}
                      onCheckedChange={() => toggle(evaluation.id)}
                    />
                  </TableCell>
                  <TableCell>
                    <Link
                      href={`/evaluations/runs/${evaluation.id}`}
                      aria-label={`Open evaluation: ${evaluation.status}`}
                    >
                      <StatusBadge status={evaluation.status} />
                    </Link>
                  </TableCell>
                  <TableCell>
                    {evaluation.dataset.name} v{evaluation.dataset.version}
                  </TableCell>
                  <TableCell>
                    {evaluation.workflowVersion === null ? "draft" : `v${evaluation.workflowVersion}`}
                  </TableCell>
                  <TableCell className="tabular-nums">{formatRate(evaluation.totals.passHatKRate)}</TableCell>
                  <TableCell className="tabular-nums">
                    {evaluation.totals.finishedTrials}/{evaluation.totals.plannedTrials}
                  </TableCell>
                  <TableCell className="tabular-nums">{formatCost(evaluation.totals.meanCost)}</TableCell>
                  <TableCell className="tabular-nums">{formatDuration(evaluation.totals.p50LatencyMs)}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatRelativeTime(evaluation.startedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </SectionCard>
    </div>
  );
}

/** A whole-number setting of a new evaluation (1 to `max`); id and testid are `evaluate-<name>`. */
function CountField({
  name,
  label,
  max,
  value,
  onChange,
}: {
  name: "trials" | "concurrency";
  label: string;
  max: number;
  value: number;
  onChange: (name: "trials" | "concurrency", value: number) => void;
}) {
  const id = `evaluate-${name}`;
  return (
    <FormField id={id} label={label} errorTestId={`evaluate-error-${name}`}>
      <Input
        id={id}
        type="number"
        min={1}
        max={max}
        data-testid={id}
        value={value}
        onChange={(event) => onChange(name, Number(event.target.value))}
      />
    </FormField>
  );
}
