import { z } from "zod";

/**
 * A workspace's run-history retention, as the settings page edits it and the settings API
 * accepts it (isomorphic). Null means "no limit" for that rule; both null keeps every run.
 */
export const retentionSettingsSchema = z
  .object({
    /** Runs that started more than this many days ago are deleted. */
    maxAgeDays: z.number().int().min(1).max(3650).nullable(),
    /** Only the newest this many runs are kept. */
    maxCount: z.number().int().min(1).max(100_000_000).nullable(),
    /** Runs with annotations (ratings, comments, labels) are kept this many days instead of maxAgeDays. */
    keepAnnotatedDays: z.number().int().min(1).max(3650).nullable(),
  })
  .strict();

/** What the retention form sends. */
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

/** The default: 30 days, no count limit, annotated runs like any other. */
export const DEFAULT_RETENTION: RetentionSettings = { maxAgeDays: 30, maxCount: null, keepAnnotatedDays: null };

/** The retention settings plus what the last prune did, as the settings page shows them. */
export interface RetentionView extends RetentionSettings {
  /** When the last prune finished (ISO), or null if none ran yet. */
  lastPrunedAt: string | null;
  /** Rows the last prune removed (runs, node runs, events, search rows and dependents). */
  lastPrunedRows: number;
}
