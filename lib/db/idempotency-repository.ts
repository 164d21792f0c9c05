import "server-only";
import { database } from "./prisma-client";

/** A stored `Idempotency-Key` of one API key. */
export interface IdempotencyRecord {
  /** Row id. */
  id: string;
  /** Which call and body it was made with (sha256). */
  requestHash: string;
  /** The run the first request started; null while it is being started. */
  runId: string | null;
  /** After this instant the key is free again. */
  expiresAt: Date;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

const select = { id: true, requestHash: true, runId: true, expiresAt: true } as const;

/**
 * Claims `key` for `apiKeyId`: inserts the row, or, when one exists already (another request got
 * there first, even at the same instant), returns it. The unique (apiKeyId, key) index decides
 * the winner, so this holds across processes and under concurrency.
 */
export async function claimIdempotencyKey(input: {
  apiKeyId: string;
  key: string;
  requestHash: string;
  expiresAt: Date;
}): Promise<{ claimed: true; record: IdempotencyRecord } | { claimed: false; record: IdempotencyRecord | null }> {
  try {
    const record = await database().idempotencyKey.create({ data: input, select });
    return { claimed: true, record };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { claimed: false, record: await findIdempotencyKey(input.apiKeyId, input.key) };
  }
}

/** The stored key, if any (expired or not). */
export async function findIdempotencyKey(apiKeyId: string, key: string): Promise<IdempotencyRecord | null> {
  return database().idempotencyKey.findUnique({ where: { apiKeyId_key: { apiKeyId, key } }, select });
}

/** Records the run the claiming request started. */
export async function setIdempotencyRun(id: string, runId: string): Promise<void> {
  await database().idempotencyKey.update({ where: { id }, data: { runId } });
}

/** Releases a claim whose request started no run (refused inputs, unknown workflow), so a retry may try again. */
export async function releaseIdempotencyKey(id: string): Promise<void> {
  await database().idempotencyKey.deleteMany({ where: { id, runId: null } });
}

/** Deletes one expired row (only if it is still expired, so a fresh claim made meanwhile stays). */
export async function deleteExpiredIdempotencyKey(id: string, now: Date): Promise<void> {
  await database().idempotencyKey.deleteMany({ where: { id, expiresAt: { lte: now } } });
}

/** Deletes every expired row; returns how many. */
export async function sweepExpiredIdempotencyKeys(now: Date): Promise<number> {
  const { count } = await database().idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/** The published version a run executes (number and document), for answering a replayed request; null when none. */
export async function findRunVersion(runId: string): Promise<{ version: number; document: unknown } | null> {
  const row = await database().run.findUnique({
    where: { id: runId },
    select: { version: { select: { version: true, document: true } } },
  });
  return row?.version ? { version: row.version.version, document: row.version.document } : null;
}
