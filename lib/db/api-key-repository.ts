import "server-only";
import crypto from "node:crypto";
import { type ApiKeyLimits, type ApiKeyScope, normalizeApiKeyScopes } from "../contracts/api-keys";
import { TrellisError } from "../workflow/errors";
import { toJson } from "./json";
import { database } from "./prisma-client";
import { previousMasterKeys, purposeKey } from "./secret-keys";

export type { ApiKeyScope } from "../contracts/api-keys";

/** An API key as listed (never the secret). */
export interface ApiKeyView {
  /** Key id. */
  id: string;
  /** Label. */
  name: string;
  /** First characters of the secret, to recognise it. */
  prefix: string;
  /** Granted scopes (legacy names mapped forward). */
  scopes: ApiKeyScope[];
  /** The workflows the key may reach; null: every workflow of the workspace. */
  workflowIds: string[] | null;
  /** Browser origins allowed to call /api/v1 with the key; empty: none. */
  allowedOrigins: string[];
  /** Requests per minute; null: the server default. */
  rateLimitPerMinute: number | null;
  /** Creation time. */
  createdAt: Date;
  /** Last successful use. */
  lastUsedAt: Date | null;
  /** Set when revoked. */
  revokedAt: Date | null;
}

/** What a verified key grants. */
export interface ApiKeyGrant {
  /** Key id. */
  keyId: string;
  /** Workspace the key belongs to. */
  workspaceId: string;
  /** The workflows the key may reach; null: all. */
  workflowIds: string[] | null;
  /** Scopes (legacy names mapped forward). */
  scopes: ApiKeyScope[];
  /** Allowed CORS origins; empty: none. */
  allowedOrigins: string[];
  /** Requests per minute; null: the server default. */
  rateLimitPerMinute: number | null;
}

/** Thrown when an API key id does not exist in the workspace. */
export class ApiKeyNotFoundError extends TrellisError {
  constructor(id: string) {
    super("api_key_not_found", `API key ${id} does not exist.`);
  }
}

const SECRET_PREFIX = "trl_";

/**
 * The stored form of a key's secret: HMAC-SHA256 under the API-key purpose key, so a copy of the
 * table alone does not let anyone test guesses. `master` picks the master key (rotation).
 */
function hashSecret(secret: string, master?: Buffer): string {
  return crypto.createHmac("sha256", purposeKey("api-keys", master)).update(secret).digest("hex");
}

/**
 * Stored forms a key may still have: a plain sha256 (before purpose keys) and HMACs under a
 * TRELLIS_SECRET_KEY_PREVIOUS key (before a rotation). A match is upgraded on first use.
 */
function olderHashes(secret: string): string[] {
  return [
    crypto.createHash("sha256").update(secret).digest("hex"),
    ...previousMasterKeys().map((master) => hashSecret(secret, master)),
  ];
}

/** The row of a presented secret, by its current hash or (upgrading it) by an older one. */
async function findKeyRow(secret: string, hash: string) {
  const db = database();
  const row = await db.apiKey.findUnique({ where: { hash } });
  if (row) return row;
  for (const older of olderHashes(secret)) {
    const legacy = await db.apiKey.findUnique({ where: { hash: older } });
    if (!legacy) continue;
    // Conditional, so two concurrent first uses upgrade it once; either way the row is the same key.
    await db.apiKey.updateMany({ where: { id: legacy.id, hash: older }, data: { hash } });
    return { ...legacy, hash };
  }
  return null;
}

/**
 * How long this process reuses a verified key's grant without reading its row again: every
 * published-API request verifies its key, and the row read was a tenth of a short run's server
 * time. Revoking or changing a key through this process forgets its grant at once; another
 * process (a second web server, a queue worker) sees the change within this bound.
 */
export const API_KEY_GRANT_TTL_MS = 5_000;
let grantTtlMs = API_KEY_GRANT_TTL_MS;

/** Sets how long verified grants are reused (tests; 0 turns reuse off); returns the previous value. */
export function setApiKeyGrantTtl(milliseconds: number): number {
  const previous = grantTtlMs;
  grantTtlMs = milliseconds;
  return previous;
}

/** Most grants kept; the oldest is dropped beyond this (a key is one small entry). */
const MAX_CACHED_GRANTS = 10_000;

interface CachedGrant {
  grant: ApiKeyGrant;
  verifiedAt: number;
  /** The key's last recorded use, so reuse still records one use a minute. */
  lastUsedAt: number | null;
}

// One cache per process, keyed by the stored hash (route handlers and instrumentation are bundled apart).
const GRANTS_KEY = Symbol.for("trellis.api-key-grants");
const grantHolder = globalThis as unknown as Record<symbol, Map<string, CachedGrant> | undefined>;
function cachedGrants(): Map<string, CachedGrant> {
  grantHolder[GRANTS_KEY] ??= new Map();
  return grantHolder[GRANTS_KEY];
}

/** Forgets the grants of a key in this process (it was revoked or changed). */
function forgetGrants(keyId: string): void {
  const grants = cachedGrants();
  for (const [hash, cached] of grants) if (cached.grant.keyId === keyId) grants.delete(hash);
}

/** What a key is created or updated with (besides its name). */
export interface ApiKeySettings extends ApiKeyLimits {
  /** Granted scopes. */
  scopes: ApiKeyScope[];
  /** Legacy single-workflow limit; `workflowIds` supersedes it. */
  workflowId?: string | null;
}

/** Limits as stored: arrays without duplicates, `[]` for "no workflow limit" / "no origin". */
function storedLimits(input: ApiKeyLimits & { workflowId?: string | null }) {
  const workflowIds = input.workflowIds?.length
    ? [...new Set(input.workflowIds)]
    : input.workflowId
      ? [input.workflowId]
      : null;
  const origins = input.allowedOrigins?.length ? [...new Set(input.allowedOrigins)] : null;
  return {
    workflowIds: toJson(workflowIds ?? []),
    allowedOrigins: toJson(origins ?? []),
    rateLimitPerMinute: input.rateLimitPerMinute ?? null,
  };
}

/** Creates a key; the secret is returned once and only its hash is stored. */
export async function createApiKey(
  workspaceId: string,
  input: { name: string } & ApiKeySettings,
): Promise<{ key: ApiKeyView; secret: string }> {
  const secret = `${SECRET_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  const row = await database().apiKey.create({
    data: {
      workspaceId,
      name: input.name,
      hash: hashSecret(secret),
      prefix: secret.slice(0, SECRET_PREFIX.length + 6),
      scopes: toJson(input.scopes),
      ...storedLimits(input),
    },
  });
  return { key: toView(row), secret };
}

/**
 * Changes a key's scopes and limits (not its secret or name). The old single `workflowId` column
 * is cleared: `workflowIds` says it all from then on.
 * @throws ApiKeyNotFoundError
 */
export async function updateApiKey(workspaceId: string, id: string, input: ApiKeySettings): Promise<ApiKeyView> {
  const db = database();
  const result = await db.apiKey.updateMany({
    where: { id, workspaceId },
    data: { scopes: toJson(input.scopes), workflowId: null, ...storedLimits(input) },
  });
  if (result.count === 0) throw new ApiKeyNotFoundError(id);
  forgetGrants(id);
  return toView(await db.apiKey.findUniqueOrThrow({ where: { id } }));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The workflows a stored key may reach: its list, else its legacy single workflow, else all (null). */
function workflowLimit(row: { workflowId: string | null; workflowIds: unknown }): string[] | null {
  const list = stringList(row.workflowIds);
  if (list.length > 0) return list;
  return row.workflowId ? [row.workflowId] : null;
}

function toView(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: unknown;
  workflowId: string | null;
  workflowIds: unknown;
  allowedOrigins: unknown;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: normalizeApiKeyScopes(row.scopes),
    workflowIds: workflowLimit(row),
    allowedOrigins: stringList(row.allowedOrigins),
    rateLimitPerMinute: row.rateLimitPerMinute ?? null,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** A workspace's keys, newest first. */
export async function listApiKeys(workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await database().apiKey.findMany({ where: { workspaceId }, orderBy: { createdAt: "desc" } });
  return rows.map(toView);
}

/** Revokes a key; a revoked key never verifies again. */
export async function revokeApiKey(workspaceId: string, id: string): Promise<void> {
  const result = await database().apiKey.updateMany({
    where: { id, workspaceId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  forgetGrants(id);
  if (result.count === 0) {
    const exists = await database().apiKey.findFirst({ where: { id, workspaceId }, select: { id: true } });
    if (!exists) throw new ApiKeyNotFoundError(id);
  }
}

/**
 * Looks a presented secret up by its hash (the hash is indexed, and comparing digests of equal
 * length leaks nothing useful). Revoked and unknown keys give null. A grant verified less than
 * `API_KEY_GRANT_TTL_MS` ago in this process is reused (unknown keys are never cached).
 */
export async function verifyApiKey(secret: string): Promise<ApiKeyGrant | null> {
  if (!secret.startsWith(SECRET_PREFIX) || secret.length > 200) return null;
  const hash = hashSecret(secret);
  const grants = cachedGrants();
  const cached = grants.get(hash);
  const now = Date.now();
  if (cached && now - cached.verifiedAt < grantTtlMs) {
    if (cached.lastUsedAt === null || now - cached.lastUsedAt >= LAST_USED_PRECISION_MS) {
      const lastUsedAt = cached.lastUsedAt;
      cached.lastUsedAt = now;
      await touchLastUsed(cached.grant.keyId, lastUsedAt === null ? null : new Date(lastUsedAt));
    }
    return cached.grant;
  }
  grants.delete(hash);
  const row = await findKeyRow(secret, hash);
  if (!row || row.revokedAt) return null;
  const lastUsedAt = await touchLastUsed(row.id, row.lastUsedAt);
  const grant: ApiKeyGrant = {
    keyId: row.id,
    workspaceId: row.workspaceId,
    workflowIds: workflowLimit(row),
    scopes: normalizeApiKeyScopes(row.scopes),
    allowedOrigins: stringList(row.allowedOrigins),
    rateLimitPerMinute: row.rateLimitPerMinute ?? null,
  };
  if (grantTtlMs > 0) {
    grants.set(hash, { grant, verifiedAt: now, lastUsedAt: lastUsedAt?.getTime() ?? null });
    if (grants.size > MAX_CACHED_GRANTS) grants.delete(grants.keys().next().value as string);
  }
  return grant;
}

/** How stale `lastUsedAt` may get: recording every use would add a write per request. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Records a use at most once a minute per key. The write is conditional on the stored time still
 * being stale, so concurrent requests of the same minute write once between them. Resolves with
 * the key's last use as recorded now.
 */
async function touchLastUsed(id: string, lastUsedAt: Date | null): Promise<Date | null> {
  const now = Date.now();
  if (lastUsedAt && now - lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return lastUsedAt;
  const staleBefore = new Date(now - LAST_USED_PRECISION_MS);
  await database().apiKey.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: new Date(now) },
  });
  return new Date(now);
}

/**
 * Whether any live key of any workspace allows `origin` (a CORS preflight carries no key, so it
 * can only be told whether some key could be allowed; the real request is checked per key).
 */
export async function isOriginAllowedByAnyKey(origin: string): Promise<boolean> {
  const rows = await database().apiKey.findMany({
    where: { revokedAt: null },
    select: { allowedOrigins: true },
  });
  return rows.some((row) => stringList(row.allowedOrigins).includes(origin));
}
