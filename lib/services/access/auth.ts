import "server-only";
import { betterAuth } from "better-auth";
import { authDatabase } from "../../db/auth-adapter";
import { hashPassword, verifyPassword } from "../../db/passwords";
import { type Database, database } from "../../db/prisma-client";
import { findActingMembership } from "../../db/session-repository";
import { SESSION_COOKIE, SESSION_TTL_MS, sessionSecret, signedSessionValue } from "../session-token";
import { positiveInteger, RateLimitedError } from "./rate-limits";

/**
 * Headers our server code puts on the better-auth calls it makes (`auth.api.*` and the requests it
 * hands to `auth.handler`): better-auth's handler is not mounted as a route, so no client reaches
 * it and no client header is passed through. The client address is ours
 * (lib/http/client-address.ts: socket, proxies only from TRELLIS_TRUSTED_PROXIES), never a raw
 * `X-Forwarded-For`; better-auth's limiter keys on it too.
 */
export const CLIENT_ADDRESS_HEADER = "x-trellis-client-address";
/** The workspace a new session should act in (sign-in keeps none: the oldest membership). */
const ACTIVE_WORKSPACE_HEADER = "x-trellis-active-workspace";

/** Who a better-auth call is made for. */
export interface AuthCaller {
  /** Our client address of the request (null: none known, e.g. a test fixture). */
  ipAddress: string | null;
  userAgent: string | null;
  /** The request's signed session cookie value, for calls on the current session. */
  sessionValue?: string;
  /** For calls that start a session: the workspace it should act in when the user is a member. */
  activeWorkspaceId?: string;
}

/** The headers of a better-auth server call for `caller` (nothing else of the request). */
export function authHeaders(caller: AuthCaller): Headers {
  const headers = new Headers();
  if (caller.ipAddress) headers.set(CLIENT_ADDRESS_HEADER, caller.ipAddress);
  if (caller.userAgent) headers.set("user-agent", caller.userAgent.slice(0, 500));
  if (caller.sessionValue) headers.set("cookie", `${SESSION_COOKIE}=${caller.sessionValue}`);
  if (caller.activeWorkspaceId) headers.set(ACTIVE_WORKSPACE_HEADER, caller.activeWorkspaceId);
  return headers;
}

/** The origin of the requests our server hands to `auth.handler` (no client ever sees it). */
const AUTH_ORIGIN = "http://localhost";
/** better-auth's default base path, spelled out: the handler's endpoints live under it. */
const AUTH_BASE_PATH = "/api/auth";

/** Default ceiling of sign-in requests (right or wrong) per client address and minute. */
const SIGN_IN_FLOOD_MAX = 60;

/**
 * The request our server hands to better-auth's handler for `path` (e.g. `/sign-in/email`) on
 * behalf of `caller`: a JSON POST with only our headers (authHeaders). It carries better-auth's
 * own origin: the browser's request already passed our cross-origin check (lib/http/route.ts),
 * and better-auth refuses a cookie-bearing POST without a trusted Origin.
 */
export function authRequest(path: string, caller: AuthCaller, body: unknown): Request {
  const headers = authHeaders(caller);
  headers.set("content-type", "application/json");
  if (caller.sessionValue) headers.set("origin", AUTH_ORIGIN);
  return new Request(`${AUTH_ORIGIN}${AUTH_BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * Hands `authRequest(path, caller, body)` to better-auth's handler (its router: rate limiter,
 * CSRF checks, the endpoint) and returns its answer. A refusal by its limiter becomes our
 * RateLimitedError (429 `rate_limited`, Retry-After) for `what`.
 * @throws RateLimitedError
 */
export async function callAuthHandler(
  path: string,
  caller: AuthCaller,
  body: unknown,
  what: string,
): Promise<Response> {
  const response = await auth().handler(authRequest(path, caller, body));
  if (response.status === 429) {
    const retryAfter = positiveInteger(response.headers.get("x-retry-after") ?? undefined, 60);
    throw new RateLimitedError(what, retryAfter);
  }
  return response;
}

/** The `code` of a better-auth error answer (e.g. `INVALID_PASSWORD`), if it has one. */
export async function authErrorCode(response: Response): Promise<string | undefined> {
  const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
  return typeof body?.code === "string" ? body.code : undefined;
}

function createAuth(client: Database, secret: string) {
  return betterAuth({
    appName: "Trellis",
    // Only server calls (no handler mounted as a route): the base URL appears in nothing we send
    // to a client; it is the address of the requests authRequest builds.
    baseURL: AUTH_ORIGIN,
    basePath: AUTH_BASE_PATH,
    // Errors that are not better-auth's own (a database down) reach our error mapping as thrown,
    // instead of the router's bare 500.
    onAPIError: { throw: true },
    secret,
    database: authDatabase(client),
    telemetry: { enabled: false },
    logger: { level: "error" },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 200,
      // Our scrypt (lib/db/passwords.ts): off the event loop, parameters in the hash, and the first
      // format `scrypt$salt$hash` still verifies. better-auth hashes once for an unknown e-mail.
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(password, hash) },
    },
    session: {
      expiresIn: SESSION_TTL_MS / 1000,
      // Expiry as before: fixed at sign-in, not slid forward while used (last seen is ours).
      disableSessionRefresh: true,
      // The current password is the proof for a password change, however old the session.
      freshAge: 0,
      additionalFields: {
        activeWorkspaceId: { type: "string", required: false, input: false },
      },
    },
    advanced: {
      cookiePrefix: "trellis",
      // Its origin check as in production (better-auth skips it under NODE_ENV=test), so tests
      // prove the requests authRequest builds pass it.
      disableOriginCheck: false,
      // One cookie name on HTTP and HTTPS (no `__Secure-` prefix): routes add `Secure` on HTTPS.
      useSecureCookies: false,
      // Our cuid ids (Prisma's @default(cuid())).
      database: { generateId: false },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // better-auth's limiter runs in its router (`auth.handler`), which sign-in and the password
    // change go through (lib/services/account.ts), keyed on our client address header above. It
    // counts every request, so it is a flood ceiling: the brute-force limit is ours, in front
    // (lib/services/access/rate-limits.ts: failures only, per address and per account).
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 100,
      customRules: {
        // 60 a minute per address (TRELLIS_SIGN_IN_FLOOD_MAX): a script signing in once per call,
        // or an office behind one address, stays under it; better-auth's default for sign-in (3 per
        // 10 s) would refuse them. Read per request, so tests can lower it.
        "/sign-in/email": () => ({
          window: 60,
          max: positiveInteger(process.env.TRELLIS_SIGN_IN_FLOOD_MAX, SIGN_IN_FLOOD_MAX),
        }),
        // better-auth's own special rule for password changes, spelled out.
        "/change-password": { window: 10, max: 3 },
      },
    },
    databaseHooks: {
      session: {
        create: {
          // Every new session records our client address as is, and acts in the requested
          // workspace while the user is a member there, else in their oldest.
          before: async (session, context) => {
            const headers = context?.headers;
            const fields = session as typeof session & { activeWorkspaceId?: string | null };
            const requested = headers?.get(ACTIVE_WORKSPACE_HEADER) ?? fields.activeWorkspaceId ?? null;
            const membership = await findActingMembership(session.userId, requested);
            return {
              data: {
                ...session,
                // Inside a call: only our header (better-auth's own fallback would say 127.0.0.1 in
                // tests). Outside (createSessionFor): the override it was given.
                ipAddress: context ? (headers?.get(CLIENT_ADDRESS_HEADER) ?? null) : session.ipAddress || null,
                activeWorkspaceId: membership?.workspaceId ?? null,
              },
            };
          },
        },
      },
    },
  });
}

/** The configured better-auth instance. */
export type TrellisAuth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Database, { secret: string; auth: TrellisAuth }>();

/**
 * better-auth on the current database client (tests swap clients, and the secret with them), made
 * once per client and secret.
 */
export function auth(): TrellisAuth {
  const client = database();
  const secret = sessionSecret();
  const cached = instances.get(client);
  if (cached?.secret === secret) return cached.auth;
  const created = createAuth(client, secret);
  instances.set(client, { secret, auth: created });
  return created;
}

/**
 * Starts a session for a user through better-auth without a password check (test fixtures, and a
 * password change's fresh session is made by better-auth itself). Returns the signed cookie value.
 */
export async function createSessionFor(
  userId: string,
  caller: AuthCaller,
  expiresAt?: Date,
): Promise<{ value: string; sessionId: string }> {
  const context = await auth().$context;
  // Outside an endpoint there are no headers: the session's fields come as overrides instead.
  const fields = {
    ipAddress: caller.ipAddress,
    userAgent: caller.userAgent?.slice(0, 500) ?? null,
    activeWorkspaceId: caller.activeWorkspaceId ?? null,
  };
  // An explicit expiry (tests of expired sessions) needs better-auth's "override all".
  const session = expiresAt
    ? await context.internalAdapter.createSession(userId, false, { ...fields, expiresAt }, true)
    : await context.internalAdapter.createSession(userId, false, fields);
  if (!session) throw new Error("better-auth did not create a session.");
  return { value: signedSessionValue(session.token, context.secret), sessionId: session.id };
}

/** The signed session cookie value in a better-auth answer's `Set-Cookie` headers, if any. */
export function sessionValueFrom(headers: Headers): string | undefined {
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const separator = pair?.indexOf("=") ?? -1;
    if (pair && separator > 0 && pair.slice(0, separator).trim() === SESSION_COOKIE) {
      const value = pair.slice(separator + 1).trim();
      if (value) return value;
    }
  }
  return undefined;
}
