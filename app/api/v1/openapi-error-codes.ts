/**
 * The error codes of /api/v1 as the OpenAPI document lists them: each code's status and meaning,
 * and the codes every operation of a kind answers.
 */
import { statusForCode } from "@/lib/http/respond";
import type { ApiOperation } from "./openapi-operations";

/** Statuses of codes that are not TrellisErrors mapped by `mapError`. */
const STATUS_OVERRIDES: Record<string, number> = {
  method_not_allowed: 405,
  internal_error: 500,
  run_cancelled: 409,
  run_waiting: 409,
  run_still_running: 409,
  "<run error code>": 422,
};

/** What each code means, for the error tables. */
export const CODE_NOTES: Record<string, string> = {
  unauthorized: "No API key (no `Authorization: Bearer` header).",
  invalid_api_key: "An unknown or revoked key (one answer for both).",
  forbidden: "The key may not touch this resource.",
  api_key_scope_missing: "The key has none of the scopes the operation lists; `scope` names one that would allow it.",
  rate_limited: "Too many calls for this key; `Retry-After` says when to try again.",
  method_not_allowed: "Another method; `Allow` lists the right one.",
  internal_error: "A server fault (logged).",
  invalid_path: "A malformed path parameter.",
  invalid_query: "A malformed query parameter.",
  invalid_json: "The body is not JSON.",
  invalid_request: "The body does not match the schema; `field` names the first issue.",
  request_too_large: "The body is larger than 4 MB.",
  unsupported_media_type: "The body is not sent as application/json.",
  too_deep: "The body nests more than 256 levels.",
  workflow_not_found: "No such workflow, or not one this key may call.",
  workflow_not_published: "The workflow was never published.",
  workflow_version_not_found: "`slug@version` names a version that was never published.",
  workflow_invalid: "The published version does not compile any more.",
  invalid_input: "The inputs do not match the start node's declared inputs (`issues` name each).",
  idempotency_key_reused: "The Idempotency-Key was used with another body within 24 h.",
  idempotency_key_in_progress: "The first call with this Idempotency-Key is still starting its run.",
  invalid_idempotency_key: "An empty or over-long Idempotency-Key.",
  run_not_found: "No such run, or not one this key started.",
  run_not_active: "The run already ended.",
  invalid_answer: "The answer does not fit what the waiting node asks.",
  invalid_dataset: "The cases are not valid: `issues` lists each problem with its line and field.",
  evaluation_not_found: "No such evaluation, or not one of this key's workspace.",
  run_cancelled: "The run was cancelled.",
  run_waiting: "A human-input node waits; answer with /api/v1/runs/{runId}/resume.",
  run_still_running: "The run outlived the hold; follow it with /api/v1/runs/{runId}.",
  "<run error code>":
    "The run failed: the run's own code (model_rate_limited, deadline_exceeded, …), type workflow_error.",
};

/** The status an operation answers a code with. */
export function statusOfCode(code: string): number {
  return STATUS_OVERRIDES[code] ?? statusForCode(code);
}

const BODY_ERRORS = ["invalid_json", "invalid_request", "request_too_large", "unsupported_media_type", "too_deep"];
/** Codes of an operation that takes an `Idempotency-Key`. */
export const IDEMPOTENCY_ERRORS = ["idempotency_key_reused", "idempotency_key_in_progress", "invalid_idempotency_key"];

/** Codes every operation of a kind can answer. */
export function commonErrors(operation: ApiOperation): string[] {
  const codes = ["method_not_allowed", "internal_error"];
  if (operation.auth === "api-key")
    codes.unshift("unauthorized", "invalid_api_key", "forbidden", "api_key_scope_missing", "rate_limited");
  if (operation.params) codes.push("invalid_path");
  if (operation.query) codes.push("invalid_query");
  if (operation.body) codes.push(...BODY_ERRORS);
  return codes;
}
