import { z } from "zod";

/**
 * One audit-log line as the API answers it and the audit page renders it (isomorphic). Never
 * carries secrets: `detail` holds names and before/after values of settings, not credentials.
 */
export interface AuditEntryView {
  id: string;
  /** When it happened (ISO 8601). */
  createdAt: string;
  /** Who: a person, an API key, the server itself, or nobody signed in (a failed sign-in). */
  actor: { type: AuditActorType; id: string | null; label: string };
  /** A stable dotted name, e.g. `auth.sign_in`, `member.role_changed`. */
  action: string;
  /** What it was done to, when it was done to something. */
  target: { type: string; id: string; label: string | null } | null;
  /** The client address of the request, when there was a request. */
  clientAddress: string | null;
  /** Action-specific details (never secrets). */
  detail: Record<string, unknown> | null;
}

/** Who acted. */
export type AuditActorType = "user" | "api-key" | "system" | "anonymous";

/**
 * Filters of the audit page, `GET /api/audit` and its export, as URL query parameters
 * (isomorphic: the page keeps them in its URL). `action` is an exact name or a prefix ending in
 * `.` (`credential.`), comma-separated for several; `from`/`to` are dates or date-times.
 */
export const auditQuerySchema = z.object({
  action: z
    .string()
    .max(500)
    .regex(/^[a-z0-9_.,]*$/, "Use action names like credential.created or prefixes like credential.")
    .optional(),
  actor: z.string().max(200).optional(),
  from: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
  to: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** Parsed audit filters. */
export type AuditQueryInput = z.infer<typeof auditQuerySchema>;

/** One page of the audit log: newest first, and the cursor of the next (older) page. */
export interface AuditPage {
  /** Entries of this page. */
  entries: AuditEntryView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}
