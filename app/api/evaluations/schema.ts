import { z } from "zod";

/** Path of `/api/evaluations/:id`. */
export const evaluationPathSchema = z.object({ id: z.string().min(1).max(200) });

/** Trials per case and concurrency, shared by the app and `/api/v1`. */
export const trialsSchema = z
  .number()
  .int()
  .min(1, "At least 1 trial")
  .max(20, "At most 20 trials per case")
  .default(5);
export const concurrencySchema = z.number().int().min(1).max(32).default(4);

/** Body of `POST /api/evaluations`. */
export const startEvaluationBodySchema = z.object({
  workflowId: z.string().min(1).max(200),
  /** A published version number, `latest`, or `draft`. */
  version: z.union([z.number().int().positive(), z.enum(["latest", "draft"])]).default("draft"),
  datasetId: z.string().min(1).max(200),
  datasetVersion: z.number().int().positive().optional(),
  trials: trialsSchema,
  concurrency: concurrencySchema,
});

/** Query of `GET /api/evaluations`. */
export const listEvaluationsQuerySchema = z.object({
  workflowId: z.string().min(1).max(200).optional(),
  datasetId: z.string().min(1).max(200).optional(),
});

/** Query of `GET /api/evaluations/compare`. */
export const compareQuerySchema = z.object({
  base: z.string().min(1).max(200),
  candidate: z.string().min(1).max(200),
});

/** Body of `POST /api/evaluations/:id`. */
export const evaluationActionBodySchema = z.object({ action: z.literal("cancel") });

/** Path and body of `/api/evaluations/gates/:workflowId`. */
export const gatePathSchema = z.object({ workflowId: z.string().min(1).max(200) });
export const gateBodySchema = z.object({ datasetId: z.string().min(1).max(200).nullable() });
