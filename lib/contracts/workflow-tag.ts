import { z } from "zod";

/**
 * Workflow tags as the API accepts them and the browser sees them (isomorphic: the routes, the
 * service, the list's tag filter and the tag editor share it).
 */

/** The tag colours the design system draws (a chip's background and text, light and dark). */
export const WORKFLOW_TAG_COLORS = ["gray", "blue", "green", "amber", "red", "violet"] as const;

/** One of {@link WORKFLOW_TAG_COLORS}. */
export type WorkflowTagColor = (typeof WORKFLOW_TAG_COLORS)[number];

/** Most tags one workflow carries: a label set, not a keyword dump. */
export const WORKFLOW_TAGS_PER_WORKFLOW_LIMIT = 20;

/** A tag's name: trimmed, 1 to 40 characters. */
export const workflowTagNameSchema = z
  .string({ error: "Enter a tag name" })
  .trim()
  .min(1, "Enter a tag name")
  .max(40, "Use at most 40 characters");

/** A tag's colour. */
export const workflowTagColorSchema = z.enum(WORKFLOW_TAG_COLORS, {
  error: `Use one of ${WORKFLOW_TAG_COLORS.join(", ")}`,
});

/** A new tag (`POST /api/tags`). */
export const workflowTagInputSchema = z.object({
  name: workflowTagNameSchema,
  color: workflowTagColorSchema.optional(),
});

/** A renamed or recoloured tag (`PATCH /api/tags/:id`): at least one of the two. */
export const workflowTagUpdateSchema = z
  .object({ name: workflowTagNameSchema.optional(), color: workflowTagColorSchema.optional() })
  .refine((value) => value.name !== undefined || value.color !== undefined, {
    message: "Send a name or a color",
    path: ["name"],
  });

/** The tags of one workflow (`PUT /api/workflows/:id/tags`), by id; replaces the whole set. */
export const workflowTagSetSchema = z.object({
  tagIds: z
    .array(z.string().min(1, "Use a tag id"), { error: "Send tagIds as a list of tag ids" })
    .max(WORKFLOW_TAGS_PER_WORKFLOW_LIMIT, `Use at most ${WORKFLOW_TAGS_PER_WORKFLOW_LIMIT} tags`),
});

/** A tag as members see it. */
export interface WorkflowTagView {
  /** Tag id. */
  id: string;
  /** Name, unique in the workspace. */
  name: string;
  /** Chip colour. */
  color: WorkflowTagColor;
  /** How many of the workspace's workflows carry it. */
  workflowCount: number;
}

/** The tag colour stored in a row, read back safely (an unknown value draws gray). */
export function workflowTagColor(value: string): WorkflowTagColor {
  return (WORKFLOW_TAG_COLORS as readonly string[]).includes(value) ? (value as WorkflowTagColor) : "gray";
}
