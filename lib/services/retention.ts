import "server-only";
import "../db/run-review-history";
import crypto from "node:crypto";
import type { RetentionSettings, RetentionView } from "../contracts/retention";
import {
  claimPrune,
  deleteRuns,
  findExpiredRuns,
  finishPrune,
  getRetentionPolicy,
  listWorkspacesDueForPrune,
  saveRetentionPolicy,
} from "../db/retention-repository";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { recordAudit } from "./audit-log";

/** How often a process looks for workspaces to prune. */
export const RETENTION_INTERVAL_MS = 10 * 60_000;
/** A workspace is pruned again once its last prune is this old. */
export const RETENTION_PERIOD_MS = 60 * 60_000;
/** Runs deleted per transaction: small enough that concurrent run writes wait only briefly. */
export const RETENTION_BATCH_SIZE = 200;
/** How long a claim holds if its process dies mid-prune. */
const CLAIM_LEASE_MS = 15 * 60_000;

/** This process's name in prune claims. */
const processOwner = `${process.pid}-${crypto.randomBytes(4).toString("hex")}`;

/** The workspace's retention settings and last prune, for the settings page. */
export async function getRetention(principal: Principal | null): Promise<RetentionView> {
  authorize(principal, "run.read");
  const policy = await getRetentionPolicy(principal.workspaceId);
  return {
    maxAgeDays: policy.maxAgeDays,
    maxCount: policy.maxCount,
    keepAnnotatedDays: policy.keepAnnotatedDays,
    lastPrunedAt: policy.lastPrunedAt?.toISOString() ?? null,
    lastPrunedRows: policy.lastPrunedRows,
  };
}

/** Changes the workspace's retention (admins and owners). */
export async function saveRetention(principal: Principal | null, settings: RetentionSettings): Promise<RetentionView> {
  authorize(principal, "settings.manage");
  const before = await getRetention(principal);
  await saveRetentionPolicy(principal.workspaceId, settings);
  const after = await getRetention(principal);
  await recordAudit(principal, {
    action: "settings.updated",
    target: { type: "retention", id: principal.workspaceId, label: "Run retention" },
    detail: {
      setting: "retention",
      from: { maxAgeDays: before.maxAgeDays, maxCount: before.maxCount, keepAnnotatedDays: before.keepAnnotatedDays },
      to: { maxAgeDays: after.maxAgeDays, maxCount: after.maxCount, keepAnnotatedDays: after.keepAnnotatedDays },
    },
  });
  return after;
}

/** What one workspace's prune did. */
export interface PruneResult {
  /** The workspace. */
  workspaceId: string;
  /** False when another process held the claim. */
  claimed: boolean;
  /** Runs deleted. */
  runs: number;
  /** Rows deleted across all tables. */
  rows: number;
  /** Transactions used (one per batch). */
  batches: number;
}

/**
 * Prunes one workspace by its policy, a batch per transaction until nothing expired is left, and
 * records the time and rows removed. Safe with several processes: the claim decides who prunes.
 */
export async function pruneWorkspace(
  workspaceId: string,
  options: { now?: Date; batchSize?: number; owner?: string } = {},
): Promise<PruneResult> {
  const now = options.now ?? new Date();
  const owner = options.owner ?? processOwner;
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const result: PruneResult = { workspaceId, claimed: false, runs: 0, rows: 0, batches: 0 };
  if (!(await claimPrune(workspaceId, owner, now, CLAIM_LEASE_MS))) return result;
  result.claimed = true;
  try {
    const policy = await getRetentionPolicy(workspaceId);
    for (;;) {
      const expired = await findExpiredRuns(workspaceId, policy, now, batchSize);
      if (expired.length === 0) break;
      result.rows += await deleteRuns(expired);
      result.runs += expired.length;
      result.batches++;
      // Yield between batches so run writes and page loads get the database in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await finishPrune(workspaceId, owner, result.rows, new Date());
  }
  return result;
}

/** Prunes every workspace whose last prune is older than the period. */
export async function pruneDueWorkspaces(now = new Date()): Promise<PruneResult[]> {
  const due = await listWorkspacesDueForPrune(new Date(now.getTime() - RETENTION_PERIOD_MS));
  const results: PruneResult[] = [];
  for (const workspaceId of due) results.push(await pruneWorkspace(workspaceId, { now }));
  return results;
}

/** Starts the periodic prune in this process; returns a stop function. A failing prune is logged, never thrown. */
export function startRetentionJob(intervalMs = RETENTION_INTERVAL_MS): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    pruneDueWorkspaces()
      .catch((error: unknown) => console.error("Retention prune failed:", error))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(tick, 30_000);
  first.unref();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
