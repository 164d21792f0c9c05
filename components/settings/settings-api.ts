/** A field-level problem reported by the settings API (`issues` of a 400). */
export interface ApiIssue {
  /** Field path or document location, e.g. `name` or `paths./pets.get.parameters[0]`. */
  path: string;
  /** What is wrong there. */
  message: string;
}

/** Outcome of a settings API call. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; message: string; code: string; issues: ApiIssue[] };

/**
 * Sends JSON to a settings route and reads `{ error: { code, message, issues } }` on failure, so
 * forms can show the server's message and point at the field (or spec location) it names.
 */
export async function sendJson<T>(url: string, method: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    return { ok: false, code: "network_error", message: `The server did not answer: ${String(error)}`, issues: [] };
  }
  if (response.status === 204) return { ok: true, data: undefined as T };
  const payload = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string; issues?: ApiIssue[] };
  } | null;
  if (response.ok) return { ok: true, data: payload as T };
  return {
    ok: false,
    code: payload?.error?.code ?? "request_failed",
    message: payload?.error?.message ?? `Request failed (${response.status})`,
    issues: payload?.error?.issues ?? [],
  };
}
