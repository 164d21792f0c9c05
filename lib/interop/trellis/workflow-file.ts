import { z } from "zod";
import { type WorkflowDocument, workflowDocumentSchema } from "../../workflow/document";
import { collectDocumentReferences } from "../references";

/**
 * What a workflow refers to outside its document, by name only (never a secret): the tools it
 * calls (with the tool source they came from, when the exporter knows it), the HTTP credentials
 * and the model providers. The importing workspace checks these and lets the user map each.
 */
export const workflowFileReferencesSchema = z.object({
  tools: z.array(z.object({ name: z.string().min(1), source: z.string().optional() })).default([]),
  credentials: z.array(z.object({ name: z.string().min(1) })).default([]),
  providers: z.array(z.object({ name: z.string().min(1) })).default([]),
});

/** The exported file: a small envelope around the document so that name, description and references travel with it. */
export const workflowFileSchema = z.object({
  kind: z.literal("trellis-workflow").optional(),
  name: z.string().trim().min(1, "The file needs a workflow name").max(120),
  description: z.string().max(2000).optional(),
  document: workflowDocumentSchema,
  references: workflowFileReferencesSchema.optional(),
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

/** The export file of a workflow, with its workspace references; `toolSources` names the source of each tool when known. */
export function buildWorkflowFile(
  name: string,
  description: string,
  document: WorkflowDocument,
  toolSources: Readonly<Record<string, string>> = {},
): WorkflowFile {
  const references = collectDocumentReferences(document);
  const of = (kind: string) => references.filter((reference) => reference.kind === kind);
  return {
    kind: "trellis-workflow",
    name,
    description,
    document,
    references: {
      tools: of("tool").map((reference) => ({
        name: reference.name,
        ...(Object.hasOwn(toolSources, reference.name) ? { source: toolSources[reference.name] } : {}),
      })),
      credentials: of("credential").map((reference) => ({ name: reference.name })),
      providers: of("provider").map((reference) => ({ name: reference.name })),
    },
  };
}
