import type { z } from "zod";
import { isTrellisError } from "../workflow/errors";

/** JSON error body shared by every API route: `{ error: { code, message, field? } }`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra?: { field?: string } & Record<string, unknown>,
): Response {
  return Response.json({ error: { code, message, ...extra } }, { status });
}

/** Parses a JSON request body with a zod schema; the failure is a ready 400 response naming the first field. */
export async function parseBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<{ ok: true; data: z.output<Schema> } | { ok: false; response: Response }> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return { ok: false, response: errorResponse(400, "invalid_json", "The request body is not valid JSON.") };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const first = parsed.error.issues[0];
  return {
    ok: false,
    response: errorResponse(400, "invalid_request", first?.message ?? "Invalid request body.", {
      field: first?.path.join("."),
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
    }),
  };
}

/** HTTP status for a stable error code; codes not listed are client errors. */
const STATUS_BY_CODE: Record<string, number> = {
  run_not_active: 409,
  revision_conflict: 409,
  tool_source_name_taken: 409,
  provider_name_taken: 409,
  http_credential_name_taken: 409,
  member_exists: 409,
  member_change_refused: 409,
  wrong_password: 400,
  tool_name_collision: 409,
  workflow_invalid: 422,
  invalid_answer: 422,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
};

/** Maps errors thrown by the lib layer: known codes keep their status, anything else is a logged 500. */
export function mapError(error: unknown): Response {
  if (isTrellisError(error)) {
    const status = error.code.endsWith("_not_found") ? 404 : (STATUS_BY_CODE[error.code] ?? 400);
    const issues = (error as { issues?: unknown }).issues;
    const response = errorResponse(status, error.code, error.message, issues === undefined ? undefined : { issues });
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter !== undefined) response.headers.set("retry-after", String(retryAfter));
    return response;
  }
  console.error(error);
  return errorResponse(500, "internal_error", "Something went wrong on the server.");
}
