import { z } from "zod";

/**
 * Scopes an API key may carry:
 * - `run` calls published workflows and follows (reads, cancels, answers) the API runs it started;
 * - `read-runs` reads runs (of any trigger) of the workflows it may reach;
 * - `manage` lists versions and chooses which one a workflow's endpoint serves;
 * - `evaluate` runs evaluations (a dataset against a workflow version, e.g. from CI) and reads them.
 */
export const API_KEY_SCOPES = ["run", "read-runs", "manage", "evaluate"] as const;

/** One API key scope. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Names older keys were stored with, mapped forward when a key is read, so no stored key breaks
 * when a scope is renamed (`runs:read` and `read` are spellings of early drafts).
 */
const LEGACY_SCOPES: Record<string, ApiKeyScope> = { "runs:read": "read-runs", read: "read-runs", admin: "manage" };

/** The known scopes of a stored scope list (legacy names mapped forward, unknown ones dropped). */
export function normalizeApiKeyScopes(stored: unknown): ApiKeyScope[] {
  if (!Array.isArray(stored)) return [];
  const scopes = new Set<ApiKeyScope>();
  for (const value of stored) {
    if (typeof value !== "string") continue;
    const scope = (API_KEY_SCOPES as readonly string[]).includes(value) ? (value as ApiKeyScope) : LEGACY_SCOPES[value];
    if (scope) scopes.add(scope);
  }
  return API_KEY_SCOPES.filter((scope) => scopes.has(scope));
}

/** Largest per-key rate limit (requests per minute) a key may be given. */
export const MAX_API_KEY_RATE_LIMIT = 100_000;

/** An allowed CORS origin: scheme, host and optional port, nothing else (`https://app.example.com`). */
export const corsOriginSchema = z
  .string()
  .trim()
  .max(200)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value.replace(/\/$/, "");
    } catch {
      return false;
    }
  }, "Give an origin such as https://app.example.com (scheme and host, no path).")
  .transform((value) => new URL(value).origin);

/** The limits a key may carry beside its scopes; null/absent means "no limit". */
export const apiKeyLimitsSchema = z.object({
  /** The workflows the key may reach; null or empty: every workflow of the workspace. */
  workflowIds: z.array(z.string().min(1).max(200)).max(200).nullish(),
  /** Browser origins allowed to call /api/v1 with this key (CORS); none: no browser access. */
  allowedOrigins: z.array(corsOriginSchema).max(50).nullish(),
  /** Requests per minute for this key; null: the server default (TRELLIS_API_RATE_LIMIT). */
  rateLimitPerMinute: z.number().int().min(1).max(MAX_API_KEY_RATE_LIMIT).nullish(),
});

/** Limits of a key as parsed. */
export type ApiKeyLimits = z.infer<typeof apiKeyLimitsSchema>;
