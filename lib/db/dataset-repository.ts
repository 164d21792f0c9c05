import "server-only";
import { TrellisError } from "../workflow/errors";
import { toJson } from "./json";
import { database } from "./prisma-client";

/** A dataset id that does not exist. Code `dataset_not_found` (404). */
export class DatasetNotFoundError extends TrellisError {
  constructor(id: string) {
    super("dataset_not_found", `Dataset ${id} does not exist.`);
  }
}

/** The name is taken in the workspace. Code `dataset_name_taken` (409). */
export class DatasetNameTakenError extends TrellisError {
  /** The field, for forms. */
  readonly details = { field: "name" };
  constructor(name: string) {
    super("dataset_name_taken", `A dataset named "${name}" already exists in this workspace.`);
  }
}

/** Someone saved a newer version since the editor loaded. Code `dataset_version_conflict` (409). */
export class DatasetVersionConflictError extends TrellisError {
  /** The current latest version. */
  readonly currentVersion: number;
  constructor(currentVersion: number) {
    super("dataset_version_conflict", `The dataset was changed elsewhere; its latest version is ${currentVersion}.`, {
      hint: "Reload the dataset and apply your change again.",
    });
    this.currentVersion = currentVersion;
  }
}

/** A dataset as lists show it. */
export interface DatasetSummary {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  workflowId: string | null;
  latestVersion: number;
  caseCount: number;
  updatedAt: Date;
}

/** One stored version. */
export interface DatasetVersionRow {
  id: string;
  datasetId: string;
  version: number;
  cases: unknown;
  note: string;
  createdAt: Date;
}

/** The workspace's datasets, most recently changed first. */
export async function listDatasets(workspaceId: string): Promise<DatasetSummary[]> {
  const rows = await database().dataset.findMany({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    include: { versions: { orderBy: { version: "desc" }, take: 1, select: { version: true, cases: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    workflowId: row.workflowId,
    latestVersion: row.versions[0]?.version ?? 0,
    caseCount: Array.isArray(row.versions[0]?.cases) ? (row.versions[0]!.cases as unknown[]).length : 0,
    updatedAt: row.updatedAt,
  }));
}

/** A dataset's row, or null. */
export async function findDataset(id: string) {
  return database().dataset.findUnique({ where: { id } });
}

/** A dataset by name in a workspace, or null. */
export async function findDatasetByName(workspaceId: string, name: string) {
  return database().dataset.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}

/** A version (the latest when `version` is absent), or null. */
export async function getDatasetVersion(datasetId: string, version?: number): Promise<DatasetVersionRow | null> {
  const row =
    version === undefined
      ? await database().datasetVersion.findFirst({ where: { datasetId }, orderBy: { version: "desc" } })
      : await database().datasetVersion.findUnique({ where: { datasetId_version: { datasetId, version } } });
  return row ? { ...row } : null;
}

/** A version by its row id, or null. */
export async function getDatasetVersionById(id: string): Promise<DatasetVersionRow | null> {
  return database().datasetVersion.findUnique({ where: { id } });
}

/** Every version's number, note and case count, newest first. */
export async function listDatasetVersions(datasetId: string) {
  const rows = await database().datasetVersion.findMany({ where: { datasetId }, orderBy: { version: "desc" } });
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    note: row.note,
    createdAt: row.createdAt,
    caseCount: Array.isArray(row.cases) ? row.cases.length : 0,
  }));
}

/** Creates a dataset with its version 1. */
export async function createDatasetRow(input: {
  workspaceId: string;
  name: string;
  description: string;
  workflowId: string | null;
  cases: unknown[];
  userId: string | null;
}): Promise<{ id: string; version: number }> {
  if (await findDatasetByName(input.workspaceId, input.name)) throw new DatasetNameTakenError(input.name);
  const row = await database().dataset.create({
    data: {
      workspaceId: input.workspaceId,
      name: input.name,
      description: input.description,
      workflowId: input.workflowId,
      versions: { create: { version: 1, cases: toJson(input.cases), note: "Created", createdBy: input.userId } },
    },
  });
  return { id: row.id, version: 1 };
}

/**
 * Writes the next version; `expectedVersion` (when given) must be the latest, so two editors
 * cannot overwrite each other. The unique (datasetId, version) index settles a race.
 * @throws DatasetVersionConflictError
 */
export async function appendDatasetVersion(
  datasetId: string,
  input: { cases: unknown[]; note: string; userId: string | null; expectedVersion?: number },
): Promise<{ version: number }> {
  const latest = await getDatasetVersion(datasetId);
  const current = latest?.version ?? 0;
  if (input.expectedVersion !== undefined && input.expectedVersion !== current)
    throw new DatasetVersionConflictError(current);
  try {
    await database().$transaction([
      database().datasetVersion.create({
        data: {
          datasetId,
          version: current + 1,
          cases: toJson(input.cases),
          note: input.note,
          createdBy: input.userId,
        },
      }),
      database().dataset.update({ where: { id: datasetId }, data: { updatedAt: new Date() } }),
    ]);
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new DatasetVersionConflictError(current + 1);
    throw error;
  }
  return { version: current + 1 };
}

/** Renames or re-describes a dataset (not a new version: the cases are unchanged). */
export async function updateDatasetRow(
  id: string,
  input: { name?: string; description?: string; workflowId?: string | null },
): Promise<void> {
  const row = await findDataset(id);
  if (!row) throw new DatasetNotFoundError(id);
  if (input.name && input.name !== row.name && (await findDatasetByName(row.workspaceId, input.name)))
    throw new DatasetNameTakenError(input.name);
  await database().dataset.update({ where: { id }, data: input });
}

/** Deletes a dataset, its versions and their evaluation runs. */
export async function deleteDatasetRow(id: string): Promise<void> {
  await database().dataset.delete({ where: { id } });
}
