import { z } from "zod";
import { workflowDocumentSchema } from "@/lib/workflow/document";

/** Path of `/api/workflows/:id/**`. */
export const workflowPathSchema = z.object({ id: z.string().min(1).max(200) });

/** Body of `PUT /api/workflows/:id`: the draft plus the revision it was based on. */
export const updateWorkflowBodySchema = z.object({
  draft: workflowDocumentSchema,
  expectedRevision: z.number().int().nonnegative(),
  name: z.string().trim().min(1, "Give the workflow a name").max(120).optional(),
  description: z.string().max(2000).optional(),
});

/** Body of `POST /api/workflows/:id`: actions on a workflow that are not draft edits. */
export const workflowActionBodySchema = z.object({
  action: z.literal("publish"),
  note: z.string().max(500).default(""),
});
