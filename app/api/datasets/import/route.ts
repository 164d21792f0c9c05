import { json, route } from "@/lib/http/route";
import { importDataset } from "@/lib/services/datasets";
import { importDatasetBodySchema } from "../schema";

/** Imports a JSONL or CSV file as a new dataset or the next version of one; problems name line and field (422). */
export const POST = route(
  { auth: "session", body: importDatasetBodySchema, maxBodyBytes: 9 * 1024 * 1024 },
  async ({ principal, body }) => json(await importDataset(principal, body), 201),
);
