import { noContent, route } from "@/lib/http/route";
import { deleteDataset, getDataset, saveDatasetCases, updateDataset } from "@/lib/services/datasets";
import { datasetPathSchema, datasetVersionQuerySchema, saveCasesBodySchema, updateDatasetBodySchema } from "../schema";

/** A dataset with one version's cases (`?version=`, default the latest) and its versions. */
export const GET = route(
  { auth: "session", params: datasetPathSchema, query: datasetVersionQuerySchema },
  async ({ principal, params, query }) => getDataset(principal, params.id, query.version),
);

/** Saves the cases as the next version (409 `dataset_version_conflict` when `expectedVersion` is stale). */
export const PUT = route(
  { auth: "session", params: datasetPathSchema, body: saveCasesBodySchema },
  async ({ principal, params, body }) => saveDatasetCases(principal, params.id, body),
);

/** Renames, re-describes or re-links the dataset. */
export const PATCH = route(
  { auth: "session", params: datasetPathSchema, body: updateDatasetBodySchema },
  async ({ principal, params, body }) => {
    await updateDataset(principal, params.id, body);
    return { ok: true };
  },
);

/** Deletes the dataset with its versions and evaluations. */
export const DELETE = route({ auth: "session", params: datasetPathSchema }, async ({ principal, params }) => {
  await deleteDataset(principal, params.id);
  return noContent();
});
