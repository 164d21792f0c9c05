import "server-only";
import { betterAuth } from "better-auth";
import { authDatabase } from "../../db/auth-adapter";
import { hashPassword, verifyPassword } from "../../db/passwords";
import { type Database, database } from "../../db/prisma-client";
import { findActingMembership } from "../../db/session-repository";
import { SESSION_COOKIE, SESSION_TTL_MS, sessionSecret, signedSessionValue } from "../session-token";

/**
 * Headers our server code puts on the better-auth calls it makes (`auth.api.*`): better-auth's
 * handler is not mounted, so no client reaches it and no client header is passed through. The
 * client address is ours (lib/http/client-address.ts: socket, proxies only from
 * TRELLIS_TRUSTED_PROXIES), never a raw `X-Forwarded-For`.
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

function createAuth(client: Database, secret: string) {
  return betterAuth({
    appName: "Trellis",
    // Only server calls (no handler mounted): the base URL appears in nothing we send.
    baseURL: "http://localhost",
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
      // One cookie name on HTTP and HTTPS (no `__Secure-` prefix): routes add `Secure` on HTTPS.
      useSecureCookies: false,
      // Our cuid ids (Prisma's @default(cuid())).
      database: { generateId: false },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // better-auth's limiter runs in its router, i.e. only for its mounted handler, which we do not
    // mount: sign-in is limited by ours (lib/services/access/rate-limits.ts, failures only).
    rateLimit: { enabled: true, storage: "memory", window: 60, max: 100 },
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
