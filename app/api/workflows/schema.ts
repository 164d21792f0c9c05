import { z } from "zod";
import { workflowDocumentSchema } from "@/lib/workflow/document";

/** Body of `POST /api/workflows`: a new workflow (optionally from an imported document) or a copy of one. */
export const createWorkflowBodySchema = z.union([
  z.object({ duplicateOf: z.string().min(1) }),
  z.object({
    name: z.string().trim().min(1, "Give the workflow a name").max(120),
    description: z.string().max(2000).optional(),
    draft: workflowDocumentSchema.optional(),
  }),
]);

/** Parsed create body. */
export type CreateWorkflowBody = z.infer<typeof createWorkflowBodySchema>;
