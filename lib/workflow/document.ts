import { z } from "zod";

/** The schema version written by this build. Older documents are upgraded by `migrateDocument`. */
export const CURRENT_SCHEMA_VERSION = 4;

/** Canvas position of a node; for body nodes it is relative to the parent container. */
export const positionSchema = z.object({ x: z.number(), y: z.number() });

/**
 * One node as saved in a workflow document. `data` holds the title plus the type's config;
 * the config is validated against the node definition by the compiler, not here, so that an
 * invalid config becomes a precise compile issue instead of a rejected document.
 */
export const workflowNodeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  position: positionSchema,
  parentId: z.string().min(1).optional(),
  width: z.number().positive().optional(),
  height: z.number().positive().optional(),
  data: z.looseObject({ title: z.string() }),
});

/** A directed connection between two node handles. */
export const workflowEdgeSchema = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  sourceHandle: z.string().nullish(),
  target: z.string().min(1),
  targetHandle: z.string().nullish(),
});

/** Colours a sticky note can have (tokens `--note-<colour>` in globals.css). */
export const NOTE_COLORS = ["yellow", "blue", "green", "pink", "purple", "gray"] as const;

/** One of {@link NOTE_COLORS}. */
export type NoteColor = (typeof NOTE_COLORS)[number];

/** Longest note text, in characters. */
export const STICKY_NOTE_TEXT_LIMIT = 10_000;

/**
 * A sticky note on the canvas (schema version 4): Markdown text for people, never executed and
 * never seen by the compiler, which reads only `nodes` and `edges`.
 */
export const stickyNoteSchema = z.object({
  id: z.string().min(1),
  position: positionSchema,
  width: z.number().positive(),
  height: z.number().positive(),
  text: z.string().max(STICKY_NOTE_TEXT_LIMIT),
  color: z.enum(NOTE_COLORS),
});

/** A sticky note as saved in a workflow document. */
export type StickyNote = z.infer<typeof stickyNoteSchema>;

/**
 * The serializable workflow document: plain JSON, no UI-only state. `notes` is optional so that
 * documents written before version 4 (and code that builds graphs) need not carry an empty list.
 */
export const workflowDocumentSchema = z.object({
  schemaVersion: z.number().int().positive(),
  nodes: z.array(workflowNodeSchema),
  edges: z.array(workflowEdgeSchema),
  notes: z.array(stickyNoteSchema).optional(),
});

/** A node as saved in a workflow document. */
export type WorkflowNode = z.infer<typeof workflowNodeSchema>;
/** An edge as saved in a workflow document. */
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>;
/** The whole serializable workflow document. */
export type WorkflowDocument = z.infer<typeof workflowDocumentSchema>;

/** An empty document at the current schema version. */
export function emptyDocument(): WorkflowDocument {
  return { schemaVersion: CURRENT_SCHEMA_VERSION, nodes: [], edges: [] };
}
