import { z } from "zod";
import { concurrencySchema, trialsSchema } from "@/app/api/evaluations/schema";

/** Body of `POST /api/v1/evaluations` (an API key with the `evaluate` scope). */
export const v1EvaluationBodySchema = z.object({
  /** The workflow's slug. */
  workflow: z.string().min(1).max(200),
  /** A published version number, `latest` (default) or `draft`. */
  version: z.union([z.number().int().positive(), z.enum(["latest", "draft"])]).default("latest"),
  /** The cases (a JSONL file's lines, parsed); they become the next version of `dataset_name`. */
  cases: z.array(z.unknown()).min(1, "Send at least one case").max(2000),
  dataset_name: z.string().trim().min(1).max(120).optional(),
  k: trialsSchema,
  concurrency: concurrencySchema,
  /** Wait for the result up to `timeout_seconds` (else answer 202 with the id to poll). */
  wait: z.boolean().default(true),
  timeout_seconds: z.number().int().min(1).max(3600).default(600),
});

/** Path of `/api/v1/evaluations/:id`. */
export const v1EvaluationPathSchema = z.object({ id: z.string().min(1).max(200) });
