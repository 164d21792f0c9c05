import "server-only";
import { findDataset } from "../db/dataset-repository";
import { getPublishGate, setPublishGate as setPublishGateRow } from "../db/evaluation-repository";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { assertWorkflowInWorkspace, loadDataset } from "./datasets";

// A workflow's publish gate: the dataset whose pass^k the draft must not lower (checked by publishWorkflow).

/** A workflow's publish gate (dataset id and name), or null. */
export async function getWorkflowPublishGate(principal: Principal | null, workflowId: string) {
  authorize(principal, "workflow.read");
  await assertWorkflowInWorkspace(principal, workflowId);
  const gate = await getPublishGate(workflowId);
  if (!gate) return null;
  const dataset = await findDataset(gate.datasetId);
  return dataset ? { datasetId: dataset.id, datasetName: dataset.name } : null;
}

/** Sets (or, with null, clears) the workflow's publish gate. */
export async function setWorkflowPublishGate(
  principal: Principal | null,
  workflowId: string,
  datasetId: string | null,
) {
  authorize(principal, "workflow.publish");
  await assertWorkflowInWorkspace(principal, workflowId);
  if (datasetId) await loadDataset(principal, datasetId);
  await setPublishGateRow(principal.workspaceId, workflowId, datasetId);
}
