import { z } from "zod";
import { type WorkflowDocument, workflowDocumentSchema } from "@/lib/workflow/document";

/** The exported file: a small envelope around the document so that name and description travel with it. */
export const workflowFileSchema = z.object({
  kind: z.literal("trellis-workflow").optional(),
  name: z.string().trim().min(1, "The file needs a workflow name").max(120),
  description: z.string().max(2000).optional(),
  document: workflowDocumentSchema,
});

/** A parsed export file. */
export type WorkflowFile = z.infer<typeof workflowFileSchema>;

/** One problem found in an imported file, with the field it points at. */
export interface ImportFieldError {
  /** Dotted path such as `document.nodes.0.position.x`. */
  field: string;
  /** What is wrong. */
  message: string;
}

/**
 * Validates an imported file. A bare document (no envelope) is accepted too and named after
 * the file, because people also paste drafts copied from the API.
 */
export function parseWorkflowFile(
  text: string,
  fallbackName: string,
): { ok: true; file: WorkflowFile } | { ok: false; errors: ImportFieldError[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ field: "(file)", message: `Not valid JSON: ${(error as Error).message}` }] };
  }
  const isBareDocument = typeof value === "object" && value !== null && "nodes" in value && !("document" in value);
  const candidate = isBareDocument ? { name: fallbackName, document: value } : value;
  const parsed = workflowFileSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, file: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "(root)", message: issue.message })),
  };
}

/** The export file of a workflow. */
export function buildWorkflowFile(name: string, description: string, document: WorkflowDocument): WorkflowFile {
  return { kind: "trellis-workflow", name, description, document };
}
