import { json, route } from "@/lib/http/route";
import { createDataset, listDatasets } from "@/lib/services/datasets";
import { createDatasetBodySchema } from "./schema";

/** Lists the workspace's datasets. */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ datasets: await listDatasets(principal) }));

/** Creates a dataset (version 1). */
export const POST = route({ auth: "session", body: createDatasetBodySchema }, async ({ principal, body }) =>
  json(await createDataset(principal, body), 201),
);
