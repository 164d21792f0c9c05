/**
 * Scopes an API key may carry. `run` calls published workflows and follows the runs it started;
 * `evaluate` runs evaluations (a dataset against a workflow version, e.g. from CI) and reads them.
 */
export const API_KEY_SCOPES = ["run", "evaluate"] as const;

/** One API key scope. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
