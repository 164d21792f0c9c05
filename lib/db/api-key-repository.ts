import "server-only";
import crypto from "node:crypto";
import type { ApiKeyScope } from "../contracts/api-keys";
import { TrellisError } from "../workflow/errors";
import { toJson } from "./json";
import { database } from "./prisma-client";

export type { ApiKeyScope } from "../contracts/api-keys";

/** An API key as listed (never the secret). */
export interface ApiKeyView {
  /** Key id. */
  id: string;
  /** Label. */
  name: string;
  /** First characters of the secret, to recognise it. */
  prefix: string;
  /** Granted scopes. */
  scopes: string[];
  /** Restricts the key to one workflow, when set. */
  workflowId: string | null;
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
  /** Workflow restriction. */
  workflowId: string | null;
  /** Scopes. */
  scopes: string[];
}

/** Thrown when an API key id does not exist in the workspace. */
export class ApiKeyNotFoundError extends TrellisError {
  constructor(id: string) {
    super("api_key_not_found", `API key ${id} does not exist.`);
  }
}

const SECRET_PREFIX = "trl_";

function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret).digest("hex");
}

/** Creates a key; the secret is returned once and only its hash is stored. */
export async function createApiKey(
  workspaceId: string,
  input: { name: string; scopes: ApiKeyScope[]; workflowId?: string | null },
): Promise<{ key: ApiKeyView; secret: string }> {
  const secret = `${SECRET_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  const row = await database().apiKey.create({
    data: {
      workspaceId,
      workflowId: input.workflowId ?? null,
      name: input.name,
      hash: hashSecret(secret),
      prefix: secret.slice(0, SECRET_PREFIX.length + 6),
      scopes: toJson(input.scopes),
    },
  });
  return { key: toView(row), secret };
}

function toView(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: unknown;
  workflowId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: Array.isArray(row.scopes) ? (row.scopes as string[]) : [],
    workflowId: row.workflowId,
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
  if (result.count === 0) {
    const exists = await database().apiKey.findFirst({ where: { id, workspaceId }, select: { id: true } });
    if (!exists) throw new ApiKeyNotFoundError(id);
  }
}

/**
 * Looks a presented secret up by its hash (the hash is indexed, and comparing digests of equal
 * length leaks nothing useful). Revoked and unknown keys give null.
 */
export async function verifyApiKey(secret: string): Promise<ApiKeyGrant | null> {
  if (!secret.startsWith(SECRET_PREFIX) || secret.length > 200) return null;
  const row = await database().apiKey.findUnique({ where: { hash: hashSecret(secret) } });
  if (!row || row.revokedAt) return null;
  // Recording every use would add a write per request; a minute's precision is enough.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await database().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return {
    keyId: row.id,
    workspaceId: row.workspaceId,
    workflowId: row.workflowId,
    scopes: Array.isArray(row.scopes) ? (row.scopes as string[]) : [],
  };
}
