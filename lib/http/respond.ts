import "server-only";
import { isDatabaseUnavailableError } from "../db/database-unavailable";
import { isServerFault, isTrellisError } from "../workflow/errors";

/**
 * Answers this small go out as they are: Next's `compression` middleware would gzip every JSON
 * answer (it drops `Content-Length`, so the middleware's own 1 KiB threshold never applies), and
 * a zlib stream per answer cost about half a millisecond of a short run's server time.
 */
const SMALL_ANSWER_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * A JSON answer (`Response.json` with a size rule): one below {@link SMALL_ANSWER_BYTES} carries
 * `Cache-Control: no-transform`, which the compression middleware honours; larger ones are
 * compressed as before.
 */
export function jsonAnswer(value: unknown, init: ResponseInit = {}): Response {
  const body = encoder.encode(JSON.stringify(value));
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  if (body.byteLength < SMALL_ANSWER_BYTES) {
    const cacheControl = headers.get("cache-control");
    // Headers taken over from an earlier answer (an error re-shaped for OpenAI clients) may carry it already.
    if (!cacheControl) headers.set("cache-control", "no-transform");
    else if (!/(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl))
      headers.set("cache-control", `${cacheControl}, no-transform`);
  }
  return new Response(body, { ...init, headers });
}

/** JSON error body shared by every API route: `{ error: { code, message, field? } }`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra?: { field?: string } & Record<string, unknown>,
): Response {
  return jsonAnswer({ error: { code, message, ...extra } }, { status });
}

/** HTTP status for a stable error code; codes not listed are client errors. */
const STATUS_BY_CODE: Record<string, number> = {
  run_not_active: 409,
  revision_conflict: 409,
  tool_source_name_taken: 409,
  provider_name_taken: 409,
  http_credential_name_taken: 409,
  workspace_variable_name_taken: 409,
  workflow_slug_taken: 409,
  workflow_tag_name_taken: 409,
  member_exists: 409,
  member_change_refused: 409,
  account_exists: 409,
  invitation_used: 410,
  invitation_expired: 410,
  invitation_revoked: 410,
  invitation_email_mismatch: 403,
  wrong_password: 400,
  tool_name_collision: 409,
  workflow_invalid: 422,
  invalid_answer: 422,
  invalid_input: 422,
  unauthorized: 401,
  invalid_api_key: 401,
  api_key_scope_missing: 403,
  metrics_not_enabled: 404,
  invalid_credentials: 401,
  forbidden: 403,
  rate_limited: 429,
  request_too_large: 413,
  unsupported_media_type: 415,
  cross_origin_refused: 403,
  too_deep: 422,
  import_too_large: 413,
  invalid_import: 422,
  invalid_filter: 422,
  invalid_cursor: 422,
  workflow_not_published: 409,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  provider_rename_unsupported: 400,
  unknown_mention: 422,
  unknown_node_run: 422,
  unknown_workflow: 422,
  rerun_unavailable: 409,
  queue_unavailable: 503,
  dataset_name_taken: 409,
  dataset_version_conflict: 409,
  invalid_dataset: 422,
  publish_regression: 409,
  publish_draft_not_evaluated: 409,
  publish_evaluation_stale: 409,
  evaluation_not_running: 409,
  tool_fixture_unsupported: 422,
};

/** The HTTP status `mapError` answers a Trellis error code with (also what the OpenAPI document lists). */
export function statusForCode(code: string): number {
  return code.endsWith("_not_found") ? 404 : (STATUS_BY_CODE[code] ?? 400);
}

/**
 * Maps errors thrown by the lib layer: known codes keep their status; a server fault keeps its
 * code but is a logged 500 with a generic message; anything else is a logged 500 `internal_error`.
 */
export function mapError(error: unknown): Response {
  if (isTrellisError(error) && isServerFault(error)) {
    console.error(error);
    return errorResponse(500, error.code, "Something went wrong on the server.");
  }
  if (isTrellisError(error)) {
    const status = statusForCode(error.code);
    const { issues, details } = error as { issues?: unknown; details?: Record<string, unknown> };
    const response = errorResponse(status, error.code, error.message, {
      ...details,
      ...(issues === undefined ? {} : { issues }),
    });
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter !== undefined) response.headers.set("retry-after", String(retryAfter));
    return response;
  }
  if (isDatabaseUnavailableError(error)) {
    console.error(`database unavailable: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return errorResponse(503, "database_unavailable", "The database is unavailable; retry shortly.");
  }
  console.error(error);
  return errorResponse(500, "internal_error", "Something went wrong on the server.");
}
