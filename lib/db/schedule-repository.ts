import "server-only";
import { nextRunTimes, type ScheduleInput } from "../workflow/schedule";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";

/** A workflow's schedule as the editor shows it. */
export interface ScheduleView {
  cron: string;
  timezone: string;
  inputs: Record<string, unknown>;
  enabled: boolean;
  /** ISO time of the next firing; null while disabled. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastRunId: string | null;
  /** Why the last firing started no run, if it did not. */
  lastError: string | null;
}

/** A schedule that is due, as the scheduler needs it. */
export interface DueSchedule {
  id: string;
  workspaceId: string;
  workflowId: string;
  cron: string;
  timezone: string;
  inputs: Record<string, unknown>;
  nextRunAt: Date;
}

type Row = {
  cron: string;
  timezone: string;
  inputs: unknown;
  enabled: boolean;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  lastRunId: string | null;
  lastError: string | null;
};

function toView(row: Row): ScheduleView {
  return {
    cron: row.cron,
    timezone: row.timezone,
    inputs: asRecord(row.inputs),
    enabled: row.enabled,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastRunId: row.lastRunId,
    lastError: row.lastError,
  };
}

/** The workflow's schedule, or null when it has none. */
export async function getSchedule(workflowId: string): Promise<ScheduleView | null> {
  const row = await database().schedule.findUnique({ where: { workflowId } });
  return row ? toView(row) : null;
}

/** Creates or replaces the workflow's schedule; the next firing is computed from `now`. */
export async function saveSchedule(
  workspaceId: string,
  workflowId: string,
  input: ScheduleInput,
  now = new Date(),
): Promise<ScheduleView> {
  const nextRunAt = input.enabled ? (nextRunTimes(input.cron, input.timezone, now, 1)[0] ?? null) : null;
  const data = {
    cron: input.cron,
    timezone: input.timezone,
    inputs: toJson(input.inputs),
    enabled: input.enabled,
    nextRunAt,
    lastError: null,
  };
  const row = await database().schedule.upsert({
    where: { workflowId },
    create: { workspaceId, workflowId, ...data },
    update: data,
  });
  return toView(row);
}

/** Removes the workflow's schedule (no-op when there is none). */
export async function deleteSchedule(workflowId: string): Promise<void> {
  await database().schedule.deleteMany({ where: { workflowId } });
}

/** Enabled schedules whose time has come, oldest first. */
export async function listDueSchedules(now: Date, limit = 50): Promise<DueSchedule[]> {
  const rows = await database().schedule.findMany({
    where: { enabled: true, nextRunAt: { lte: now } },
    orderBy: { nextRunAt: "asc" },
    take: limit,
  });
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspaceId,
    workflowId: row.workflowId,
    cron: row.cron,
    timezone: row.timezone,
    inputs: asRecord(row.inputs),
    nextRunAt: row.nextRunAt!,
  }));
}

/**
 * Takes a due firing: moves `nextRunAt` on only if it still holds the value this process read, so
 * two processes (or two ticks) never fire the same time twice. True when this caller won.
 */
export async function claimFiring(id: string, seen: Date, next: Date | null, now: Date): Promise<boolean> {
  const { count } = await database().schedule.updateMany({
    where: { id, nextRunAt: seen },
    data: { nextRunAt: next, lastRunAt: now },
  });
  return count === 1;
}

/** Records what a firing did: the run it started, or why it started none. */
export async function recordFiring(id: string, outcome: { runId: string } | { error: string }): Promise<void> {
  await database().schedule.update({
    where: { id },
    data: "runId" in outcome ? { lastRunId: outcome.runId, lastError: null } : { lastError: outcome.error },
  });
}
