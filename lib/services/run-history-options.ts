import "server-only";
import { listApiKeys } from "../db/api-key-repository";
import { listVersions, listWorkflows as listWorkflowRows } from "../db/workflow-repository";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { loadWorkflow } from "./workflows";

/** What the run history's pickers offer: names and ids only, never a key's secret. */
export interface RunHistoryFilterOptions {
  /** The workspace's workflows, by name. */
  workflows: { id: string; name: string }[];
  /** The published versions of the chosen workflow, newest first (empty without one). */
  versions: { id: string; version: number; note: string }[];
  /** The workspace's API keys, revoked ones too (their runs stay in the history). */
  apiKeys: { id: string; name: string; prefix: string; revoked: boolean }[];
}

/**
 * The choices of the history's workflow, version and API key pickers. Anyone who may read runs
 * may see them (a viewer filters by key name without being allowed to manage keys).
 * @throws WorkflowNotFoundError when `workflowId` is not one of the workspace's (404)
 */
export async function runHistoryFilterOptions(
  principal: Principal | null,
  workflowId?: string,
): Promise<RunHistoryFilterOptions> {
  authorize(principal, "run.read");
  const [workflows, keys, versions] = await Promise.all([
    listWorkflowRows(principal.workspaceId),
    listApiKeys(principal.workspaceId),
    workflowId ? loadWorkflow(principal, workflowId).then(() => listVersions(workflowId)) : Promise.resolve([]),
  ]);
  return {
    workflows: workflows.map((workflow) => ({ id: workflow.id, name: workflow.name })),
    versions: versions.map((version) => ({ id: version.id, version: version.version, note: version.note })),
    apiKeys: keys.map((key) => ({ id: key.id, name: key.name, prefix: key.prefix, revoked: key.revokedAt !== null })),
  };
}
