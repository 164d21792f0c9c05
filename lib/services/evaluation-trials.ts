import "server-only";
import { getRunWithNodeRuns, RunNotFoundError } from "../db/run-repository";
import type { ToolFixture } from "../tools/tool-fixture";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { serviceRoot as root } from "./root";
import { authorizeRun } from "./runs";

/** What one evaluation trial runs: a published version's document, or the draft's. */
export interface EvaluationTrialTarget {
  /** Workflow id. */
  workflowId: string;
  /** Published version row id; null for the draft. */
  versionId: string | null;
  /** The document to run. */
  document: unknown;
}

/**
 * Starts one evaluation trial: an ordinary run (same service, recorder and honest outcomes) with
 * trigger `evaluation`, so history can tell trials from editor and API runs. A case's fixture
 * (faults, forced arguments) is applied to this run's tools only.
 */
export async function startEvaluationTrialRun(
  principal: Principal | null,
  target: EvaluationTrialTarget,
  inputs: Record<string, unknown>,
  toolFixture?: ToolFixture,
): Promise<{ runId: string; done: Promise<void> }> {
  authorize(principal, "evaluation.run", { workspaceId: principal?.workspaceId ?? "", workflowId: target.workflowId });
  return root().runs.start({
    workspaceId: principal.workspaceId,
    workflowId: target.workflowId,
    ...(target.versionId ? { versionId: target.versionId } : {}),
    document: target.document,
    inputs,
    trigger: "evaluation",
    ...(toolFixture ? { toolFixture } : {}),
  });
}

/**
 * Cancels a trial's run for its evaluation (the evaluation was cancelled): the evaluation's
 * runner, not the person, decided it, so no run-level check. A run already ended is left alone.
 */
export async function cancelEvaluationTrialRun(runId: string): Promise<void> {
  await root()
    .runs.cancel(runId)
    .catch(() => undefined);
}

/** A finished trial's run record (the Run row and its node attempts), for the evaluation checks. */
export async function getEvaluationTrialRecord(principal: Principal | null, runId: string) {
  await authorizeRun(principal, runId, "evaluation.read");
  const detail = await getRunWithNodeRuns(runId);
  if (!detail) throw new RunNotFoundError(runId);
  return detail;
}
