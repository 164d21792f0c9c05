import { z } from "zod";

/** Body of the published endpoint: inputs and how to answer. */
export const publishedRunBodySchema = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** Runs this published version; without it the workflow's pinned version, else the latest. */
  version: z.number().int().min(1).max(999_999_999).optional(),
  /** `blocking` answers with JSON when the run ends; `streaming` answers with SSE events. */
  response_mode: z.enum(["blocking", "streaming"]).default("blocking"),
  /**
   * Blocking only: how long to hold the request. A run still going then is answered with 202 and
   * its id (it keeps running; poll `GET /api/v1/runs/:id`). A run waiting for human input answers
   * at once with what it asks.
   */
  timeout_seconds: z.number().int().min(1).max(3600).default(300),
});
