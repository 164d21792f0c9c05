import "server-only";
import crypto from "node:crypto";
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKey,
  findIdempotencyKey,
  findRunVersion,
  type IdempotencyRecord,
  releaseIdempotencyKey,
  setIdempotencyRun,
  sweepExpiredIdempotencyKeys,
} from "../db/idempotency-repository";
import { getRunForExecution } from "../db/run-repository";
import { TrellisError } from "../workflow/errors";
import type { Principal } from "./access/principal";
import { serviceRoot as root } from "./root";

/** How long a key keeps answering with its run. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest accepted `Idempotency-Key` (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a repeated request waits for the first one to have started its run. */
const CLAIM_WAIT_MS = 30_000;
const CLAIM_POLL_MS = 20;
/** Expired rows are swept at most this often per process (and always when met on a claim). */
const SWEEP_INTERVAL_MS = 60_000;

/** The same `Idempotency-Key` came with a different request. Code `idempotency_key_reused` (422). */
export class IdempotencyKeyReusedError extends TrellisError {
  /** The header at fault, for the error body. */
  readonly details = { field: "Idempotency-Key" };
  constructor() {
    super(
      "idempotency_key_reused",
      "Idempotency-Key: this key was already used with a different request in the last 24 hours; use a new key for a new request.",
    );
  }
}

/** An `Idempotency-Key` that is empty or too long. Code `invalid_idempotency_key` (400). */
export class InvalidIdempotencyKeyError extends TrellisError {
  /** The header at fault, for the error body. */
  readonly details = { field: "Idempotency-Key" };
  constructor() {
    super(
      "invalid_idempotency_key",
      `Idempotency-Key: send 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (a UUID is a good key).`,
    );
  }
}

/** The first request with this key is still starting its run. Code `idempotency_key_in_progress` (409). */
export class IdempotencyKeyInProgressError extends TrellisError {
  /** The header at fault, for the error body. */
  readonly details = { field: "Idempotency-Key" };
  constructor() {
    super(
      "idempotency_key_in_progress",
      "Idempotency-Key: the first request with this key is still starting; retry shortly.",
    );
  }
}

/** Checks a header value; undefined when none was sent. @throws InvalidIdempotencyKeyError */
export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  const key = header.trim();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new InvalidIdempotencyKeyError();
  }
  return key;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 of the operation and its parsed body: what "the same request" means. */
export function requestFingerprint(operation: string, body: unknown): string {
  return crypto.createHash("sha256").update(operation).update("\n").update(canonicalJson(body)).digest("hex");
}

const sweepState = globalThis as unknown as { [key: symbol]: number | undefined };
const SWEEP_KEY = Symbol.for("trellis.idempotency-sweep");

function sweepSoon(now: Date): void {
  const last = sweepState[SWEEP_KEY] ?? 0;
  if (now.getTime() - last < SWEEP_INTERVAL_MS) return;
  sweepState[SWEEP_KEY] = now.getTime();
  void sweepExpiredIdempotencyKeys(now).catch((error: unknown) => console.error("idempotency sweep failed", error));
}

/** The outcome of an idempotent start: a fresh run, or the run an earlier identical request started. */
export type IdempotentStart<Started extends { runId: string }> =
  | { replayed: false; runId: string; started: Started }
  | { replayed: true; runId: string };

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Starts a run at most once per (API key, `Idempotency-Key`) within 24 h. The first request
 * claims the key (the unique index picks one winner among concurrent requests, in any process),
 * starts the run and records its id; an identical later request gets that run id back (the
 * caller then answers with its result or re-attaches to its events); a different request with
 * the same key is refused. Without a key, or for a principal that is not an API key, `start`
 * simply runs. A start that fails (bad inputs, unknown workflow) releases the key.
 * @throws IdempotencyKeyReusedError, IdempotencyKeyInProgressError, and whatever `start` throws
 */
export async function startIdempotently<Started extends { runId: string }>(
  principal: Principal,
  key: string | undefined,
  request: { operation: string; body: unknown },
  start: () => Promise<Started>,
): Promise<IdempotentStart<Started>> {
  if (key === undefined || principal.kind !== "api-key") {
    const started = await start();
    return { replayed: false, runId: started.runId, started };
  }
  const requestHash = requestFingerprint(request.operation, request.body);
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const now = new Date();
    sweepSoon(now);
    const claim = await claimIdempotencyKey({
      apiKeyId: principal.keyId,
      key,
      requestHash,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    });
    if (claim.claimed) return startClaimed(claim.record, start);
    let record: IdempotencyRecord | null = claim.record;
    // Someone else holds the key: wait until their run exists (or their claim goes away).
    while (record && record.expiresAt > new Date()) {
      if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      if (record.runId) return { replayed: true, runId: record.runId };
      if (Date.now() > deadline) throw new IdempotencyKeyInProgressError();
      await sleep(CLAIM_POLL_MS);
      record = await findIdempotencyKey(principal.keyId, key);
    }
    if (record) await deleteExpiredIdempotencyKey(record.id, new Date());
    if (Date.now() > deadline) throw new IdempotencyKeyInProgressError();
  }
}

async function startClaimed<Started extends { runId: string }>(
  record: IdempotencyRecord,
  start: () => Promise<Started>,
): Promise<IdempotentStart<Started>> {
  let started: Started;
  try {
    started = await start();
  } catch (error) {
    await releaseIdempotencyKey(record.id).catch(() => undefined);
    throw error;
  }
  await setIdempotencyRun(record.id, started.runId);
  return { replayed: false, runId: started.runId, started };
}

/** Statuses after which a run changes no more until someone acts (answers or resumes it). */
const SETTLED = new Set(["succeeded", "partial", "failed", "cancelled", "waiting"]);

/**
 * Resolves when a run (started by any request) has ended or waits for input: at once on its
 * `run-end` / `run-waiting` event in this process, else when its stored status says so (checked
 * now and then, for runs of another process), or after `giveUpAfterMs` at the latest.
 */
export function runSettled(runId: string, giveUpAfterMs = 3_600_000): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Resolving is harmless (callers read the run's status next); polling a stuck run forever is not.
    const giveUp = setTimeout(() => finish(), giveUpAfterMs);
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      clearTimeout(timer);
      clearTimeout(giveUp);
      resolve();
    };
    const unsubscribe = root().runs.subscribe(runId, (event) => {
      if (event.type === "run-end" || event.type === "run-waiting") finish();
    });
    const check = async () => {
      if (done) return;
      const run = await getRunForExecution(runId).catch(() => null);
      if (!run || SETTLED.has(run.status)) finish();
      else timer = setTimeout(check, 200);
    };
    void check();
  });
}

/**
 * A run an earlier identical request started, as the run-starting services return one: its
 * version (number and document) and a `done` that resolves when it settles.
 */
export async function replayedRun(
  runId: string,
): Promise<{ runId: string; version: number; document: unknown; done: Promise<void> }> {
  const version = await findRunVersion(runId);
  return { runId, version: version?.version ?? 0, document: version?.document ?? null, done: runSettled(runId) };
}
