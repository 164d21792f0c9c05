import "server-only";
import type { WorkspaceVariableView } from "../contracts/workspace-variable";
import {
  createWorkspaceVariable,
  deleteWorkspaceVariable,
  listWorkspaceVariables,
  updateWorkspaceVariable,
} from "../db/workspace-variable-repository";
import type { Principal } from "./access/principal";
import { recordAudit } from "./audit-log";
import { templateEnvironment } from "./engine-services";
import { memberWorkspace, settingsWorkspace } from "./workspace-settings";

/** What `{{env.*}}` can read in a workspace: its own variables and the server's public ones. */
export interface EnvironmentVariables {
  /** The workspace's variables (editable by owners and admins). */
  variables: WorkspaceVariableView[];
  /** The server's `TRELLIS_PUBLIC_*` variables, without the prefix; a workspace variable of the same name wins. */
  server: { name: string; value: string }[];
}

/**
 * Every member may read them (the editor's variables panel and autocomplete): they are not
 * secrets, and any editor could print them from a template anyway.
 */
export async function listEnvironmentVariables(principal: Principal | null): Promise<EnvironmentVariables> {
  const workspaceId = memberWorkspace(principal);
  const server = Object.entries(templateEnvironment())
    .map(([name, value]) => ({ name, value }))
    .sort((left, right) => left.name.localeCompare(right.name));
  return { variables: await listWorkspaceVariables(workspaceId), server };
}

/**
 * Adds a variable (owners and admins); 409 naming `name` when it exists. Name and value arrive
 * checked by the route's `workspaceVariableInputSchema`.
 */
export async function addWorkspaceVariable(
  principal: Principal | null,
  input: { name: string; value: string },
): Promise<WorkspaceVariableView> {
  const created = await createWorkspaceVariable(settingsWorkspace(principal), input);
  await auditVariable(principal, "added", input.name);
  return created;
}

/** A variable change in the audit log: its name, not its value. */
function auditVariable(principal: Principal | null, change: "added" | "changed" | "deleted", name: string) {
  return recordAudit(principal, {
    action: "settings.updated",
    target: { type: "variable", id: name, label: name },
    detail: { setting: "variables", change, name },
  });
}

/** Changes a variable's value (owners and admins). */
export async function changeWorkspaceVariable(
  principal: Principal | null,
  name: string,
  value: string,
): Promise<WorkspaceVariableView> {
  const updated = await updateWorkspaceVariable(settingsWorkspace(principal), name, value);
  await auditVariable(principal, "changed", name);
  return updated;
}

/** Deletes a variable (owners and admins). */
export async function removeWorkspaceVariable(principal: Principal | null, name: string): Promise<void> {
  await deleteWorkspaceVariable(settingsWorkspace(principal), name);
  await auditVariable(principal, "deleted", name);
}
