import "server-only";
import {
  appendDatasetVersion,
  createDatasetRow,
  DatasetNotFoundError,
  findDataset,
  findDatasetByName,
  getDatasetVersion,
} from "../db/dataset-repository";
import { getLatestVersion, getVersion, getWorkflow, WorkflowNotFoundError } from "../db/workflow-repository";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { InvalidDatasetError, parseCases } from "./datasets";

// What an evaluation runs: the workflow version (or draft) and the dataset version, resolved and
// authorized before the evaluation row exists.

/** The version to evaluate: a number, `latest` (published) or `draft`. */
export type EvaluationTargetVersion = number | "latest" | "draft";

/** What starting an evaluation takes. */
export interface StartEvaluationInput {
  /** Workflow id, or (`slug`) its slug. */
  workflowId?: string;
  slug?: string;
  /** Version number, `latest` published, or `draft` (default: `draft` for people, `latest` for API keys). */
  version?: EvaluationTargetVersion;
  /** The dataset; with `cases` instead, a dataset named `datasetName` gets them as its next version. */
  datasetId?: string;
  datasetVersion?: number;
  cases?: unknown;
  datasetName?: string;
  /** Trials per case (default 5). */
  trials?: number;
  /** Trials in flight at once (default 4). */
  concurrency?: number;
}

/** Resolves what an evaluation runs: a published version's document or the draft. */
export async function resolveTarget(principal: Principal, workflowId: string, version: EvaluationTargetVersion) {
  const notFound = () => new WorkflowNotFoundError(workflowId);
  authorize(principal, "evaluation.run", { workspaceId: principal.workspaceId, workflowId }, notFound);
  const workflow = await getWorkflow(workflowId);
  if (!workflow) throw notFound();
  authorize(principal, "evaluation.run", { workspaceId: workflow.workspaceId, workflowId }, notFound);
  if (version === "draft")
    return {
      workflow,
      versionId: null,
      version: null,
      document: workflow.draft as unknown,
      draftRevision: workflow.draftRevision,
    };
  const row = version === "latest" ? await getLatestVersion(workflowId) : await getVersion(workflowId, version);
  if (!row)
    throw new TrellisError(
      version === "latest" ? "workflow_not_published" : "workflow_version_not_found",
      version === "latest"
        ? `Workflow "${workflow.slug}" has no published version.`
        : `Workflow "${workflow.slug}" has no version ${version}.`,
    );
  return { workflow, versionId: row.id, version: row.version, document: row.document as unknown, draftRevision: null };
}

/** The dataset version an evaluation runs: a stored one, or the cases sent inline as the next version of a dataset named for them. */
export async function resolveDatasetVersion(
  principal: Principal,
  input: StartEvaluationInput & { workflowId: string },
) {
  if (input.cases !== undefined) {
    // Cases sent inline (the CLI's file): they become the next version of a dataset named for them.
    const cases = parseCases(input.cases);
    const name = input.datasetName?.trim() || "CI cases";
    const existing = await findDatasetByName(principal.workspaceId, name);
    let datasetId = existing?.id;
    if (!datasetId) {
      datasetId = (
        await createDatasetRow({
          workspaceId: principal.workspaceId,
          name,
          description: "Sent with an evaluation request.",
          workflowId: input.workflowId,
          cases,
          userId: actingUserId(principal),
        })
      ).id;
    } else {
      const latest = await getDatasetVersion(datasetId);
      if (JSON.stringify(latest?.cases) !== JSON.stringify(cases))
        await appendDatasetVersion(datasetId, {
          cases,
          note: "Sent with an evaluation request",
          userId: actingUserId(principal),
        });
    }
    const row = await getDatasetVersion(datasetId);
    return { datasetId, name, row: row! };
  }
  if (!input.datasetId)
    throw new InvalidDatasetError([
      { line: 0, field: "datasetId", message: "Give a dataset (datasetId) or the cases" },
    ]);
  authorize(principal, "evaluation.run");
  const dataset = await findDataset(input.datasetId);
  if (!dataset || dataset.workspaceId !== principal.workspaceId) throw new DatasetNotFoundError(input.datasetId);
  const row = await getDatasetVersion(dataset.id, input.datasetVersion);
  if (!row) throw new DatasetNotFoundError(`${dataset.id} version ${input.datasetVersion}`);
  return { datasetId: dataset.id, name: dataset.name, row };
}
