import "server-only";
import type { z } from "zod";
import { NotSignedInError } from "../services/access/access-errors";
import { principalFromApiKey } from "../services/access/api-key";
import type { Principal } from "../services/access/principal";
import { principalFromRequest } from "../services/access/session";
import { readCappedText } from "../tools/http/read-capped";
import { TrellisError } from "../workflow/errors";
import { clientAddress } from "./client-address";
import { withCors } from "./cors";
import { errorResponse, jsonAnswer, mapError } from "./respond";

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
  /** Largest accepted body in bytes (default 4 MiB); a larger one is refused with 413 before it is buffered. */
  maxBodyBytes?: number;
}

/** Default cap of a JSON body: a workflow document with big prompts fits, a runaway upload does not. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body is larger than the route accepts. Code `request_too_large` (413). */
export class RequestTooLargeError extends TrellisError {
  constructor(limit: number) {
    super("request_too_large", `The request body is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
  }
}

/** The body is not sent as JSON. Code `unsupported_media_type` (415). */
export class UnsupportedMediaTypeError extends TrellisError {
  constructor(contentType: string | null) {
    super(
      "unsupported_media_type",
      contentType
        ? `The request body is sent as "${contentType}"; send it as "application/json".`
        : 'The request has no Content-Type; send the body as "application/json".',
    );
  }
}

/** A browser request from another site to a state-changing route. Code `cross_origin_refused` (403). */
export class CrossOriginRefusedError extends TrellisError {
  constructor() {
    super("cross_origin_refused", "Requests to this route must come from the Trellis app itself.");
  }
}

/** Deepest nesting of objects and arrays a JSON body may have (a workflow document needs far fewer). */
export const MAX_JSON_DEPTH = 256;

/** The JSON body nests deeper than MAX_JSON_DEPTH. Code `too_deep` (422). */
export class TooDeepError extends TrellisError {
  constructor() {
    super("too_deep", `The request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep.`);
  }
}

/** Only JSON is read as JSON: a `text/plain` body (what a cross-site form can send) is refused. */
function requireJsonContentType(request: Request): void {
  const contentType = request.headers.get("content-type");
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") throw new UnsupportedMediaTypeError(contentType);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests a browser sends from another site: `Sec-Fetch-Site` (sent by
 * every current browser) must be `same-origin`; without it, an `Origin` must name this host.
 * A request with neither is not a browser's cross-site request (curl, scripts) and passes. This
 * is on top of the `SameSite=Lax` session cookie, which alone leaves same-site subdomains and
 * top-level form posts.
 */
function requireSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) {
    if (site !== "same-origin") throw new CrossOriginRefusedError();
    return;
  }
  const origin = request.headers.get("origin");
  if (origin === null) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new CrossOriginRefusedError();
  }
  // A cross-site page cannot set X-Forwarded-Host (a custom header needs a CORS preflight we never grant).
  const hosts = [request.headers.get("host"), request.headers.get("x-forwarded-host"), new URL(request.url).host];
  if (!hosts.includes(originHost)) throw new CrossOriginRefusedError();
}

/**
 * Nesting depth of a JSON text, counted without recursion (strings skipped), so a body nested
 * thousands deep is refused before zod's recursive checks would overflow the stack.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text.charCodeAt(index);
    if (inString) {
      if (character === 92)
        index++; // backslash: skip the escaped character
      else if (character === 34) inString = false;
    } else if (character === 34) inString = true;
    else if (character === 123 || character === 91) {
      if (++depth > limit) return true;
    } else if (character === 125 || character === 93) depth--;
  }
  return false;
}

/** Reads the body as text with a hard cap, so an oversized upload is refused without being buffered whole. */
async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new RequestTooLargeError(limit);
  const text = await readCappedText(request.body, limit);
  if (text === null) throw new RequestTooLargeError(limit);
  return text;
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
  /**
   * The client's address (lib/http/client-address.ts). The principal carries it too, so what a
   * service audits names where the change came from; a public route passes it on itself.
   */
  clientAddress: string;
}

/** A Next.js route handler. */
export type RouteHandler = (
  request: Request,
  context?: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** A JSON answer with a status other than 200. */
export function json(value: unknown, status: number, headers?: HeadersInit): Response {
  return jsonAnswer(value, { status, headers });
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

/** The spec each handler was made with, for tests that walk every route (e.g. body fields to fuzz). */
const SPECS = new WeakMap<RouteHandler, RouteSpec<unknown, unknown, unknown>>();

/** The spec `route()` made a handler with, if it did. */
export function routeSpecOf(handler: unknown): RouteSpec<unknown, unknown, unknown> | undefined {
  return typeof handler === "function" ? SPECS.get(handler as RouteHandler) : undefined;
}

/** Records a handler's spec (`route()` does; wrappers around it pass their inner spec on). */
export function rememberRouteSpec(handler: RouteHandler, spec: RouteSpec<never, never, never>): RouteHandler {
  SPECS.set(handler, spec as RouteSpec<unknown, unknown, unknown>);
  return handler;
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
  const wrapped: RouteHandler = async (request, context) => {
    const bearer = request.headers.has("authorization");
    const apiKey = spec.auth === "api-key" || (spec.auth === "session-or-api-key" && bearer);
    // Once the key is known, every answer (errors included) carries its CORS headers, if any.
    let resolved: Principal | null = null;
    const answer = (response: Response) => (apiKey ? withCors(response, request, resolved) : response);
    try {
      // API-key clients are not browsers carrying ambient cookies: no cross-site risk to check.
      if (!apiKey) requireSameOrigin(request);
      const address = clientAddress(request);
      // A copy per request: principals may be cached, and the address is this request's.
      const found = await resolvePrincipal(request, spec.auth);
      const principal: Principal | null =
        found && found.kind !== "system" ? { ...found, clientAddress: address } : found;
      resolved = principal;
      const rawParams = await readParams(context);
      if (!rawParams.ok) return answer(errorResponse(400, "invalid_path", "The URL path is not validly encoded."));
      let params = rawParams.value as unknown as Params;
      if (spec.params) {
        const parsed = spec.params.safeParse(rawParams.value);
        if (!parsed.success) return answer(invalid("invalid_path", "path", parsed.error, true));
        params = parsed.data;
      }
      let query = undefined as Query;
      if (spec.query) {
        const parsed = spec.query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
        if (!parsed.success) return answer(invalid("invalid_query", "query", parsed.error, true));
        query = parsed.data;
      }
      let body = undefined as Body;
      if (spec.body) {
        requireJsonContentType(request);
        const text = await readBodyText(request, spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
        if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw new TooDeepError();
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          return answer(errorResponse(400, "invalid_json", "The request body is not valid JSON."));
        }
        const parsed = spec.body.safeParse(raw);
        if (!parsed.success) return answer(invalid("invalid_request", "body", parsed.error, false));
        body = parsed.data;
      }
      // The request's address travels on the principal (and `clientAddress`), not in an
      // AsyncLocalStorage: on Node 20 and 22 one `run()` turns on async hooks for the whole
      // process, a cost on every promise of every run the server executes afterwards.
      const result = await handler({
        request,
        principal: principal as RouteInput<Params, Body, Query, Auth>["principal"],
        params,
        body,
        query,
        clientAddress: address,
      });
      return answer(result instanceof Response ? result : jsonAnswer(result ?? { ok: true }));
    } catch (error) {
      return answer(mapError(error));
    }
  };
  return rememberRouteSpec(wrapped, spec as RouteSpec<never, never, never>);
}
