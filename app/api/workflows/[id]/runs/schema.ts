import { z } from "zod";

/** Body of `POST /api/workflows/:id/runs`: inputs, and optionally the unsaved draft to run. */
export const startRunBodySchema = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  document: z.unknown().optional(),
});
