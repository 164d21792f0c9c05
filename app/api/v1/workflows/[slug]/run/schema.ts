import { z } from "zod";

/** Body of the published endpoint: inputs and how to answer. */
export const publishedRunBodySchema = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** `blocking` answers with JSON when the run ends; `streaming` answers with SSE events. */
  response_mode: z.enum(["blocking", "streaming"]).default("blocking"),
});
