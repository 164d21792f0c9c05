import "server-only";
import { findDataset } from "../db/dataset-repository";
import { getPublishGate, listEvaluationRuns } from "../db/evaluation-repository";
import { getLatestVersion } from "../db/workflow-repository";
import type { EvaluationReport } from "../evaluation/model/report";
import { TrellisError } from "../workflow/errors";

// The publish gate, apart from the evaluation service so the publish service can call it
// without importing the whole evaluation layer (and without an import cycle through runs.ts).

type StoredReport = EvaluationReport & { meta: { draftRevision: number | null } };

/** Publishing would lower the gate dataset's pass^k below the served version's. Code `publish_regression` (409). */
export class PublishRegressionError extends TrellisError {
  /** The numbers behind the refusal. */
  readonly details: {
    datasetId: string;
    datasetName: string;
    servedVersion: number;
    servedPassHatK: number | null;
    draftPassHatK: number | null;
    reason: "regression" | "draft_not_evaluated" | "evaluation_stale";
  };
  constructor(code: string, message: string, details: PublishRegressionError["details"]) {
    super(code, message, {
      hint: "Open the evaluation comparison, fix the regressions, and evaluate the draft again.",
    });
    this.details = details;
  }
}

/**
 * Called by the publish service before it freezes a draft: with a gate set, the latest finished
 * evaluation of the gate dataset against the current draft must have a pass^k no lower than the
 * latest one against the served version.
 * @throws PublishRegressionError (409) `publish_regression`, `publish_draft_not_evaluated`, `publish_evaluation_stale`
 */
export async function assertPublishGate(workflowId: string, draftRevision: number): Promise<void> {
  const gate = await getPublishGate(workflowId);
  if (!gate) return;
  const dataset = await findDataset(gate.datasetId);
  if (!dataset) return;
  const served = await getLatestVersion(workflowId);
  if (!served) return;
  const runs = (
    await listEvaluationRuns(dataset.workspaceId, { workflowId, datasetId: dataset.id, limit: 200 })
  ).filter((row) => row.status === "succeeded");
  const servedRun = runs.find((row) => row.workflowVersionId === served.id);
  const draftRun = runs.find((row) => row.workflowVersionId === null);
  const details = {
    datasetId: dataset.id,
    datasetName: dataset.name,
    servedVersion: served.version,
    servedPassHatK: (servedRun?.report as StoredReport | undefined)?.totals.passHatKRate ?? null,
    draftPassHatK: (draftRun?.report as StoredReport | undefined)?.totals.passHatKRate ?? null,
  };
  if (!draftRun)
    throw new PublishRegressionError(
      "publish_draft_not_evaluated",
      `Publishing requires an evaluation of the draft on "${dataset.name}"; run one first.`,
      { ...details, reason: "draft_not_evaluated" },
    );
  if ((draftRun.report as StoredReport).meta.draftRevision !== draftRevision)
    throw new PublishRegressionError(
      "publish_evaluation_stale",
      `The draft changed since it was evaluated on "${dataset.name}"; evaluate it again before publishing.`,
      { ...details, reason: "evaluation_stale" },
    );
  if (details.servedPassHatK !== null && (details.draftPassHatK ?? 0) < details.servedPassHatK)
    throw new PublishRegressionError(
      "publish_regression",
      `The draft's pass^k on "${dataset.name}" is ${percent(details.draftPassHatK)}, below version ${served.version}'s ${percent(details.servedPassHatK)}.`,
      { ...details, reason: "regression" },
    );
}

function percent(value: number | null): string {
  return value === null ? "unknown" : `${Math.round(value * 100)}%`;
}
