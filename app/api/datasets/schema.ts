import { z } from "zod";
import { datasetNameSchema } from "@/lib/evaluation/model/dataset";

/** Path of `/api/datasets/:id/**`. */
export const datasetPathSchema = z.object({ id: z.string().min(1).max(200) });

/** Body of `POST /api/datasets`. Cases are validated by the service (errors name `cases.<n>.<field>`). */
export const createDatasetBodySchema = z.object({
  name: datasetNameSchema,
  description: z.string().max(2000).optional(),
  workflowId: z.string().min(1).max(200).nullable().optional(),
  cases: z.array(z.unknown()).max(2000).optional(),
});

/** Body of `PUT /api/datasets/:id`: the whole case list, saved as the next version. */
export const saveCasesBodySchema = z.object({
  cases: z.array(z.unknown()).max(2000),
  note: z.string().max(500).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});

/** Body of `PATCH /api/datasets/:id`. */
export const updateDatasetBodySchema = z.object({
  name: datasetNameSchema.optional(),
  description: z.string().max(2000).optional(),
  workflowId: z.string().min(1).max(200).nullable().optional(),
});

/** Query of `GET /api/datasets/:id` and its export. */
export const datasetVersionQuerySchema = z.object({
  version: z.coerce.number().int().positive().optional(),
  format: z.enum(["jsonl", "csv"]).default("jsonl"),
});

/** Body of `POST /api/datasets/import`: the file's text (JSON bodies only, so it travels as a string). */
export const importDatasetBodySchema = z.object({
  format: z.enum(["jsonl", "csv"]),
  text: z.string().max(8 * 1024 * 1024),
  name: datasetNameSchema.optional(),
  datasetId: z.string().min(1).max(200).optional(),
  workflowId: z.string().min(1).max(200).nullable().optional(),
});

/** Body of `POST /api/datasets/from-run`. */
export const fromRunBodySchema = z.object({
  runId: z.string().min(1).max(200),
  datasetId: z.string().min(1).max(200).optional(),
  newDatasetName: datasetNameSchema.optional(),
  caseId: z.string().max(80).optional(),
  expectOutput: z.boolean().default(false),
});
