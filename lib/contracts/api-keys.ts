/** Scopes an API key may carry. `run` calls published workflows and follows the runs it started. */
export const API_KEY_SCOPES = ["run"] as const;

/** One API key scope. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
