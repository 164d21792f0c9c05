import { z } from "zod";

/** Body of `POST /api/runs/:runId/resume`: the answer to the waiting human-input node. */
export const resumeRunBodySchema = z.object({
  nodeId: z.string().min(1),
  answer: z.record(z.string(), z.unknown()),
});
