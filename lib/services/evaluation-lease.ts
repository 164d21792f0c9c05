import "server-only";
import crypto from "node:crypto";
import os from "node:os";
import { ConfigurationError } from "../db/database-config";
import { failExpiredEvaluations, renewEvaluationLeases } from "../db/evaluation-repository";

/**
 * Evaluation leases. An evaluation's loop (starting trials, scoring them, writing the report)
 * lives in the process that started it, in both execution modes: in queue mode its trials are
 * runs on the workers, but the loop and its promises stay in the web process. When that process
 * dies nothing else can finish the evaluation, so the row carries the process (`runnerId`) and a
 * lease the process renews; any process's sweep ends a `running` evaluation whose lease lapsed
 * as `failed` with `evaluation_interrupted`. A live process's evaluation always has a fresh lease,
 * so several web processes (and workers) can sweep the same database safely.
 */

/** Code of an evaluation whose process was lost (a restart, a crash, a kill). */
export const EVALUATION_INTERRUPTED = "evaluation_interrupted";

const INTERRUPTED_MESSAGE =
  "The process running this evaluation stopped; its finished trials are kept. Start it again for a full report.";

/** Default lease: 30 s. The heartbeat renews at a third of it, the sweep looks at half of it. */
const DEFAULT_LEASE_MS = 30_000;

/** `TRELLIS_EVALUATION_LEASE_MS`: how long an evaluation outlives a silent process (≥ 1000 ms). */
export function evaluationLeaseMs(environment: Record<string, string | undefined> = process.env): number {
  const raw = environment.TRELLIS_EVALUATION_LEASE_MS?.trim();
  if (!raw) return DEFAULT_LEASE_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1000)
    throw new ConfigurationError(
      "TRELLIS_EVALUATION_LEASE_MS",
      `"${raw}" is not a whole number of milliseconds ≥ 1000`,
    );
  return value;
}

/** This process, as the lease names it: host, pid and a random part (pids are reused). */
export const evaluationRunnerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;

/** The lease a new evaluation starts with. */
export function newEvaluationLease(): { runnerId: string; expiresAt: Date } {
  return { runnerId: evaluationRunnerId, expiresAt: new Date(Date.now() + evaluationLeaseMs()) };
}

/** Evaluations this process holds, with what to do when one was ended elsewhere. */
const held = new Map<string, () => void>();
let heartbeat: NodeJS.Timeout | undefined;
let renewing = false;

async function renewHeldLeases(): Promise<void> {
  if (renewing || held.size === 0) return;
  renewing = true;
  try {
    const ids = [...held.keys()];
    const renewed = new Set(
      await renewEvaluationLeases(evaluationRunnerId, ids, new Date(Date.now() + evaluationLeaseMs())),
    );
    // Not renewed: a sweep (this process was silent past its lease) or a cancel ended it elsewhere.
    for (const id of ids) if (!renewed.has(id)) held.get(id)?.();
  } catch {
    // The database is away: try again; if it stays away past the lease, a sweep ends these.
  } finally {
    renewing = false;
  }
}

/**
 * Keeps the lease of evaluation `id` fresh while this process runs it. `onLost` runs when the
 * row is no longer this process's running evaluation. Returns the release (call it when it ended).
 */
export function holdEvaluationLease(id: string, onLost: () => void): () => void {
  held.set(id, onLost);
  if (!heartbeat) {
    heartbeat = setInterval(() => void renewHeldLeases(), Math.max(250, Math.floor(evaluationLeaseMs() / 3)));
    heartbeat.unref();
  }
  return () => {
    held.delete(id);
    if (held.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  };
}

/**
 * One sweep: ends every `running` evaluation whose lease lapsed (or that has none: rows from
 * before leases, or written by hand) as `failed` with `evaluation_interrupted`, keeping the
 * counts so far. Not resumed: its trials would have to be re-matched to runs left half done;
 * starting it again is one click. Returns the ids.
 */
export function failInterruptedEvaluations(now = new Date()): Promise<string[]> {
  return failExpiredEvaluations(EVALUATION_INTERRUPTED, INTERRUPTED_MESSAGE, now);
}

/**
 * Sweeps now and then every half lease, in this process (web processes in both modes, and queue
 * workers, so an evaluation ends within about 1.5 leases of its process dying). Returns a stop
 * function. A failing sweep is logged and retried, never thrown.
 */
export function startEvaluationSweep(log: (line: string) => void = console.log): () => void {
  let sweeping = false;
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    failInterruptedEvaluations()
      .then((ids) => {
        if (ids.length) log(`Marked ${ids.length} interrupted evaluation(s) failed: ${ids.join(", ")}`);
      })
      .catch((error: unknown) => console.error("Evaluation sweep failed:", error))
      .finally(() => {
        sweeping = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, Math.max(500, Math.floor(evaluationLeaseMs() / 2)));
  timer.unref();
  return () => clearInterval(timer);
}
