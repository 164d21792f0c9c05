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
