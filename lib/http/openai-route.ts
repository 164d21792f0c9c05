import "server-only";
import { isTrellisError } from "../workflow/errors";
import { methodNotAllowed } from "./method-not-allowed";
import { jsonAnswer } from "./respond";
import { type RouteAuth, type RouteHandler, type RouteInput, type RouteSpec, rememberRouteSpec, route } from "./route";

/** The error body of the OpenAI API, which OpenAI clients parse: `{ error: { message, type, code, param } }`. */
export interface OpenAiErrorBody {
  error: {
    message: string;
    /** `invalid_request_error`, `authentication_error`, `permission_error`, `rate_limit_error`, `workflow_error`, `server_error`. */
    type: string;
    /** The Trellis code (`workflow_not_found`, `invalid_input`, the failed run's code, …). */
    code: string | null;
    /** The request field at fault, or null. */
    param: string | null;
    /** Every issue, when the check found several (not in OpenAI's shape; clients ignore it). */
    issues?: unknown;
  };
}

/** OpenAI's error `type` for an HTTP status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/**
 * An error answer in OpenAI's shape. `x-should-retry: false` stops the OpenAI SDKs from retrying
 * (they retry 409 and 5xx by default, which would start the workflow again).
 */
export function openAiError(
  status: number,
  error: { message: string; code: string | null; param?: string | null; type?: string; issues?: unknown },
  extra?: Record<string, unknown>,
  headers?: HeadersInit,
): Response {
  const body: OpenAiErrorBody & Record<string, unknown> = {
    error: {
      message: error.message,
      type: error.type ?? errorType(status),
      code: error.code,
      param: error.param ?? null,
      ...(error.issues === undefined ? {} : { issues: error.issues }),
    },
    ...extra,
  };
  const response = jsonAnswer(body, { status, headers });
  if (status !== 429 && !response.headers.has("x-should-retry")) response.headers.set("x-should-retry", "false");
  return response;
}

/** Codes that are about the `model` the client named. */
const MODEL_ERRORS = new Set(["workflow_not_found", "workflow_version_not_found", "workflow_not_published"]);

/**
 * The OpenAI answer to an error about the `model` the client named, with `param: "model"`: 404
 * for a workflow or version not found, 409 for a workflow not published. Undefined for any other
 * error, which the caller throws on.
 */
export function modelErrorAnswer(error: unknown): Response | undefined {
  if (!isTrellisError(error) || !MODEL_ERRORS.has(error.code)) return undefined;
  const status = error.code.endsWith("_not_found") ? 404 : 409;
  return openAiError(status, { message: error.message, code: error.code, param: "model" });
}

/** Turns a Trellis error answer (`{ error: { code, message, field } }`) into OpenAI's shape; others pass. */
export async function toOpenAiError(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response.clone().json()) as { error?: Record<string, unknown> };
  const error = body.error;
  // Already in OpenAI's shape (answered by the handler itself), or not an error body at all.
  if (!error || typeof error !== "object" || "type" in error) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return openAiError(
    response.status,
    {
      message: typeof error.message === "string" ? error.message : "Request failed.",
      code: typeof error.code === "string" ? error.code : null,
      param: typeof error.field === "string" ? error.field : null,
      issues: error.issues,
    },
    undefined,
    headers,
  );
}

/**
 * `route()` for the OpenAI-compatible endpoints: the same principal, parsing and error mapping,
 * with every error answered in OpenAI's shape so OpenAI clients and SDKs understand it.
 */
export function openAiRoute<
  Params = Record<string, never>,
  Body = undefined,
  Query = undefined,
  Auth extends RouteAuth = RouteAuth,
>(
  spec: RouteSpec<Params, Body, Query> & { auth: Auth },
  handler: (input: RouteInput<Params, Body, Query, Auth>) => Promise<unknown>,
): RouteHandler {
  const inner = route(spec, handler);
  return rememberRouteSpec(
    async (request, context) => toOpenAiError(await inner(request, context)),
    spec as RouteSpec<never, never, never>,
  );
}

/** `methodNotAllowed` for the OpenAI-compatible routes: the same 405, in OpenAI's error shape. */
export function openAiMethodNotAllowed(allowed: readonly string[]): RouteHandler {
  const inner = methodNotAllowed(allowed);
  return async (request, context) => toOpenAiError(await inner(request, context));
}
