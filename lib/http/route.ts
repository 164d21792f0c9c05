import "server-only";
import type { z } from "zod";
import { NotSignedInError } from "../services/access/access-errors";
import { principalFromApiKey } from "../services/access/api-key";
import type { Principal } from "../services/access/principal";
import { principalFromRequest } from "../services/access/session";
import { errorResponse, mapError } from "./respond";

/**
 * Who may call a route: `session` (a signed-in user), `api-key` (a published-API client),
 * `session-or-api-key` (API keys when an `Authorization: Bearer` header is sent, else the
 * session), or `public` (no principal, e.g. sign-in and health).
 */
export type RouteAuth = "session" | "api-key" | "session-or-api-key" | "public";

/** What a route declares: how callers authenticate and the zod schemas of its inputs. */
export interface RouteSpec<Params, Body, Query> {
  /** How the principal is resolved. */
  auth: RouteAuth;
  /** Path parameters (`[id]` folders). */
  params?: z.ZodType<Params>;
  /** JSON body. */
  body?: z.ZodType<Body>;
  /** Query string (`?a=b`), as an object of strings. */
  query?: z.ZodType<Query>;
}

/** What a handler receives: parsed inputs and the principal (null only for `public` routes). */
export interface RouteInput<Params, Body, Query, Auth extends RouteAuth> {
  /** The raw request (headers, signal). */
  request: Request;
  /** The acting principal. */
  principal: Auth extends "public" ? null : Principal;
  /** Parsed path parameters. */
  params: Params;
  /** Parsed JSON body. */
  body: Body;
  /** Parsed query. */
  query: Query;
}

/** A Next.js route handler. */
export type RouteHandler = (
  request: Request,
  context?: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** A JSON answer with a status other than 200. */
export function json(value: unknown, status: number, headers?: HeadersInit): Response {
  return Response.json(value, { status, headers });
}

/** 204 No Content. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

async function resolvePrincipal(request: Request, auth: RouteAuth): Promise<Principal | null> {
  if (auth === "public") return null;
  const bearer = request.headers.has("authorization");
  if (auth === "api-key" || (auth === "session-or-api-key" && bearer)) return principalFromApiKey(request);
  const principal = await principalFromRequest(request);
  // Fails closed: a route that needs a principal never runs without one.
  if (!principal) throw new NotSignedInError();
  return principal;
}

/** The first zod issue as a 400 naming the field (`code`, `field`, and every issue). */
function invalid(code: string, where: string, error: z.ZodError, prefixField: boolean): Response {
  const first = error.issues[0];
  const field = first?.path.join(".") || where;
  const message = first?.message ?? `Invalid ${where}.`;
  return errorResponse(400, code, prefixField ? `${field}: ${message}` : message, {
    field,
    issues: error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
  });
}

/** Path parameters as Next hands them over; a malformed percent-encoding is the client's error. */
async function readParams(context: { params?: Promise<Record<string, string | string[]>> } | undefined) {
  try {
    return { ok: true as const, value: (await context?.params) ?? {} };
  } catch {
    return { ok: false as const };
  }
}

/**
 * The one route wrapper: resolves the principal, parses path, query and body with zod, calls the
 * handler and maps every error to the JSON error shape (known codes keep their status, anything
 * else is a logged 500). A handler returns a Response, or a value sent as JSON with status 200.
 */
export function route<
  Params = Record<string, never>,
  Body = undefined,
  Query = undefined,
  Auth extends RouteAuth = RouteAuth,
>(
  spec: RouteSpec<Params, Body, Query> & { auth: Auth },
  handler: (input: RouteInput<Params, Body, Query, Auth>) => Promise<unknown>,
): RouteHandler {
  return async (request, context) => {
    try {
      const principal = await resolvePrincipal(request, spec.auth);
      const rawParams = await readParams(context);
      if (!rawParams.ok) return errorResponse(400, "invalid_path", "The URL path is not validly encoded.");
      let params = rawParams.value as unknown as Params;
      if (spec.params) {
        const parsed = spec.params.safeParse(rawParams.value);
        if (!parsed.success) return invalid("invalid_path", "path", parsed.error, true);
        params = parsed.data;
      }
      let query = undefined as Query;
      if (spec.query) {
        const parsed = spec.query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
        if (!parsed.success) return invalid("invalid_query", "query", parsed.error, true);
        query = parsed.data;
      }
      let body = undefined as Body;
      if (spec.body) {
        let raw: unknown;
        try {
          raw = await request.json();
        } catch {
          return errorResponse(400, "invalid_json", "The request body is not valid JSON.");
        }
        const parsed = spec.body.safeParse(raw);
        if (!parsed.success) return invalid("invalid_request", "body", parsed.error, false);
        body = parsed.data;
      }
      const result = await handler({
        request,
        principal: principal as RouteInput<Params, Body, Query, Auth>["principal"],
        params,
        body,
        query,
      });
      return result instanceof Response ? result : Response.json(result ?? { ok: true });
    } catch (error) {
      return mapError(error);
    }
  };
}
