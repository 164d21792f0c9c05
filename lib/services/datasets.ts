import "server-only";
import {
  appendDatasetVersion,
  createDatasetRow,
  DatasetNotFoundError,
  deleteDatasetRow,
  findDataset,
  findDatasetByName,
  getDatasetVersion,
  listDatasets as listDatasetRows,
  listDatasetVersions,
  updateDatasetRow,
} from "../db/dataset-repository";
import { getWorkflow, WorkflowNotFoundError } from "../db/workflow-repository";
import { type DatasetCase, datasetCasesSchema } from "../evaluation/model/dataset";
import {
  type DatasetFormat,
  type DatasetImportIssue,
  formatDatasetFile,
  parseDatasetFile,
} from "../evaluation/model/dataset-io";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { getRunDetail } from "./runs";

// Datasets: cases with inputs and checks, one immutable version per change (evaluations.ts runs them).

/** An imported file (or a case list) is not valid. Code `invalid_dataset` (422), every problem listed with line and field. */
export class InvalidDatasetError extends TrellisError {
  /** Each problem: `{ line, field, message }` (line 0 for cases sent as JSON). */
  readonly issues: DatasetImportIssue[];
  /** The first problem's field, for forms. */
  readonly details: { field: string; line: number };
  constructor(issues: DatasetImportIssue[]) {
    const first = issues[0];
    super(
      "invalid_dataset",
      first
        ? `${first.line ? `Line ${first.line}` : "Case"}${first.field ? `, ${first.field}` : ""}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`
        : "The dataset is not valid.",
    );
    this.issues = issues;
    this.details = { field: first?.field ?? "", line: first?.line ?? 0 };
  }
}

function datasetNotFound(id: string) {
  return () => new DatasetNotFoundError(id);
}

/** Validates cases sent as JSON (not a file): problems name `cases.<index>.<field>`. */
export function parseCases(cases: unknown): DatasetCase[] {
  const parsed = datasetCasesSchema.safeParse(cases);
  if (parsed.success) return parsed.data;
  throw new InvalidDatasetError(
    parsed.error.issues.map((issue) => ({
      line: 0,
      field: ["cases", ...issue.path.map(String)].join("."),
      message: issue.message,
    })),
  );
}

export async function loadDataset(
  principal: Principal | null,
  id: string,
  action: "dataset.read" | "dataset.edit" = "dataset.read",
) {
  authorize(principal, action);
  const dataset = await findDataset(id);
  if (!dataset) throw new DatasetNotFoundError(id);
  authorize(principal, action, { workspaceId: dataset.workspaceId }, datasetNotFound(id));
  return dataset;
}

// ---------------------------------------------------------------------------------------------
// Datasets

/** The workspace's datasets. */
export async function listDatasets(principal: Principal | null) {
  authorize(principal, "dataset.read");
  return listDatasetRows(principal.workspaceId);
}

/** A dataset with one version's cases (default the latest) and its version list. */
export async function getDataset(principal: Principal | null, id: string, version?: number) {
  const dataset = await loadDataset(principal, id);
  const row = await getDatasetVersion(id, version);
  if (!row) throw new DatasetNotFoundError(`${id} version ${version}`);
  return {
    dataset: { id: dataset.id, name: dataset.name, description: dataset.description, workflowId: dataset.workflowId },
    version: row.version,
    note: row.note,
    cases: parseCases(row.cases),
    versions: await listDatasetVersions(id),
  };
}

/** Creates a dataset (version 1 holds `cases`). */
export async function createDataset(
  principal: Principal | null,
  input: { name: string; description?: string; workflowId?: string | null; cases?: unknown },
): Promise<{ id: string; version: number }> {
  authorize(principal, "dataset.edit");
  if (input.workflowId) await assertWorkflowInWorkspace(principal, input.workflowId);
  return createDatasetRow({
    workspaceId: principal.workspaceId,
    name: input.name,
    description: input.description ?? "",
    workflowId: input.workflowId ?? null,
    cases: parseCases(input.cases ?? []),
    userId: actingUserId(principal),
  });
}

/** Saves the cases as the next version (every change is a new version). */
export async function saveDatasetCases(
  principal: Principal | null,
  id: string,
  input: { cases: unknown; note?: string; expectedVersion?: number },
): Promise<{ version: number }> {
  await loadDataset(principal, id, "dataset.edit");
  return appendDatasetVersion(id, {
    cases: parseCases(input.cases),
    note: input.note ?? "",
    userId: actingUserId(principal!),
    expectedVersion: input.expectedVersion,
  });
}

/** Renames, re-describes or re-links a dataset (no new version: the cases did not change). */
export async function updateDataset(
  principal: Principal | null,
  id: string,
  input: { name?: string; description?: string; workflowId?: string | null },
): Promise<void> {
  await loadDataset(principal, id, "dataset.edit");
  if (input.workflowId) await assertWorkflowInWorkspace(principal!, input.workflowId);
  await updateDatasetRow(id, input);
}

/** Deletes a dataset with its versions and evaluations. */
export async function deleteDataset(principal: Principal | null, id: string): Promise<void> {
  await loadDataset(principal, id, "dataset.edit");
  await deleteDatasetRow(id);
}

/** Parses an uploaded JSONL or CSV file; problems name the line and field. */
export function parseDatasetUpload(format: DatasetFormat, text: string): DatasetCase[] {
  const parsed = parseDatasetFile(format, text);
  if (!parsed.ok) throw new InvalidDatasetError(parsed.issues);
  return parsed.cases;
}

/** Imports a file as a new dataset, or as the next version of `datasetId`. */
export async function importDataset(
  principal: Principal | null,
  input: { format: DatasetFormat; text: string; datasetId?: string; name?: string; workflowId?: string | null },
): Promise<{ id: string; version: number; cases: number }> {
  const cases = parseDatasetUpload(input.format, input.text);
  if (input.datasetId) {
    const saved = await saveDatasetCases(principal, input.datasetId, {
      cases,
      note: `Imported ${input.format.toUpperCase()}`,
    });
    return { id: input.datasetId, version: saved.version, cases: cases.length };
  }
  const created = await createDataset(principal, {
    name: input.name ?? "Imported dataset",
    workflowId: input.workflowId ?? null,
    cases,
  });
  return { ...created, cases: cases.length };
}

/** A dataset version as a JSONL or CSV file. */
export async function exportDataset(
  principal: Principal | null,
  id: string,
  format: DatasetFormat,
  version?: number,
): Promise<{ fileName: string; text: string }> {
  const { dataset, version: number, cases } = await getDataset(principal, id, version);
  const base = dataset.name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-|-$/g, "") || "dataset";
  return { fileName: `${base}-v${number}.${format}`, text: formatDatasetFile(format, cases) };
}

/**
 * "Add to dataset" from a run: the run's inputs become a case's inputs; with `expectOutput`, its
 * output becomes the expected one (an `exact` check on each output value). Writes the next version.
 */
export async function addRunToDataset(
  principal: Principal | null,
  input: { runId: string; datasetId?: string; newDatasetName?: string; caseId?: string; expectOutput?: boolean },
): Promise<{ datasetId: string; version: number; caseId: string }> {
  const detail = await getRunDetail(principal, input.runId);
  let datasetId = input.datasetId;
  if (!datasetId) {
    const name = input.newDatasetName?.trim() || `${detail.workflow.name} cases`;
    const existing = await findDatasetByName(principal!.workspaceId, name);
    datasetId = existing
      ? existing.id
      : (await createDataset(principal, { name, workflowId: detail.run.workflowId, cases: [] })).id;
  }
  const current = await getDataset(principal, datasetId);
  const taken = new Set(current.cases.map((entry) => entry.id));
  let caseId = input.caseId?.trim() || `run-${input.runId.slice(-8)}`;
  for (let index = 2; taken.has(caseId); index += 1)
    caseId = `${input.caseId?.trim() || `run-${input.runId.slice(-8)}`}-${index}`;
  const outputs = (detail.run.outputs ?? {}) as Record<string, unknown>;
  const checks = input.expectOutput
    ? Object.entries(outputs).map(([name, value]) => ({
        kind: "exact",
        name: `output-${name}`.slice(0, 80).replace(/[^A-Za-z0-9_.:-]/g, "_"),
        field: name,
        expected: value,
      }))
    : [{ kind: "run-status", name: "run-succeeded", statuses: ["succeeded"] }];
  const nextCase = {
    id: caseId,
    name: `From run ${input.runId.slice(-8)}`,
    inputs: (detail.run.inputs ?? {}) as Record<string, unknown>,
    checks,
  };
  const saved = await saveDatasetCases(principal, datasetId, {
    cases: [...current.cases, nextCase],
    note: `Added run ${input.runId}`,
    expectedVersion: current.version,
  });
  return { datasetId, version: saved.version, caseId };
}

/** The workflow, when it is in the principal's workspace. */
export async function assertWorkflowInWorkspace(principal: Principal, workflowId: string) {
  const workflow = await getWorkflow(workflowId);
  if (!workflow || workflow.workspaceId !== principal.workspaceId) throw new WorkflowNotFoundError(workflowId);
  return workflow;
}
