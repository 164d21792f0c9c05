import "server-only";
import type { WorkspaceVariableView } from "../contracts/workspace-variable";
import { TrellisError } from "../workflow/errors";
import { database } from "./prisma-client";

/** No workspace variable with that name. Code `workspace_variable_not_found` (404). */
export class WorkspaceVariableNotFoundError extends TrellisError {
  constructor(name: string) {
    super("workspace_variable_not_found", `Variable "${name}" does not exist.`);
  }
}

/** The name is taken in this workspace. Code `workspace_variable_name_taken` (409). */
export class WorkspaceVariableNameTakenError extends TrellisError {
  /** Points the form at the name field. */
  readonly issues = [{ path: "name", message: "This name is already used." }];

  constructor(name: string) {
    super("workspace_variable_name_taken", `A variable named "${name}" already exists.`);
  }
}

type Row = { name: string; value: string; updatedAt: Date };

function toView(row: Row): WorkspaceVariableView {
  return { name: row.name, value: row.value, updatedAt: row.updatedAt.toISOString() };
}

/** The workspace's variables, by name. */
export async function listWorkspaceVariables(workspaceId: string): Promise<WorkspaceVariableView[]> {
  const rows = await database().workspaceVariable.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return rows.map(toView);
}

/** Name → value, for a run's `{{env.NAME}}`. */
export async function workspaceVariableValues(workspaceId: string): Promise<Record<string, string>> {
  const rows = await database().workspaceVariable.findMany({
    where: { workspaceId },
    select: { name: true, value: true },
  });
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

/** Stores a new variable (input already validated). */
export async function createWorkspaceVariable(
  workspaceId: string,
  input: { name: string; value: string },
): Promise<WorkspaceVariableView> {
  const existing = await database().workspaceVariable.findUnique({
    where: { workspaceId_name: { workspaceId, name: input.name } },
  });
  if (existing) throw new WorkspaceVariableNameTakenError(input.name);
  return toView(await database().workspaceVariable.create({ data: { workspaceId, ...input } }));
}

/** Changes a variable's value. */
export async function updateWorkspaceVariable(
  workspaceId: string,
  name: string,
  value: string,
): Promise<WorkspaceVariableView> {
  const { count } = await database().workspaceVariable.updateMany({ where: { workspaceId, name }, data: { value } });
  if (count === 0) throw new WorkspaceVariableNotFoundError(name);
  const row = await database().workspaceVariable.findUniqueOrThrow({
    where: { workspaceId_name: { workspaceId, name } },
  });
  return toView(row);
}

/** Deletes a variable; templates reading it then see the server's TRELLIS_PUBLIC_ value, if any. */
export async function deleteWorkspaceVariable(workspaceId: string, name: string): Promise<void> {
  const { count } = await database().workspaceVariable.deleteMany({ where: { workspaceId, name } });
  if (count === 0) throw new WorkspaceVariableNotFoundError(name);
}
