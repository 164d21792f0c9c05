import "server-only";
import { claimFiring, listDueSchedules, recordFiring } from "../db/schedule-repository";
import { getLatestVersion } from "../db/workflow-repository";
import { nextRunTimes } from "../workflow/schedule";
import { serviceRoot } from "./root";
import type { StartRunInput } from "./run-execution";

/** How often the scheduler looks for due schedules. */
export const SCHEDULER_INTERVAL_MS = 15_000;

/** What one tick did, for tests and logs. */
export interface SchedulerTick {
  /** Run ids started. */
  started: string[];
  /** Schedules that fired but started no run, with why. */
  skipped: { workflowId: string; reason: string }[];
}

/**
 * Fires every due schedule once: the latest published version runs with the schedule's inputs
 * (trigger `schedule`). A time missed while the server was down fires once, then the schedule
 * continues from now. A workflow with nothing published is skipped with a recorded reason.
 */
export async function fireDueSchedules(
  now = new Date(),
  start: (input: StartRunInput) => Promise<{ runId: string }> = (input) => serviceRoot().runs.start(input),
): Promise<SchedulerTick> {
  const tick: SchedulerTick = { started: [], skipped: [] };
  for (const schedule of await listDueSchedules(now)) {
    const next = nextRunTimes(schedule.cron, schedule.timezone, now, 1)[0] ?? null;
    if (!(await claimFiring(schedule.id, schedule.nextRunAt, next, now))) continue;
    const version = await getLatestVersion(schedule.workflowId);
    if (!version) {
      const reason = "The workflow has no published version; publish it to run on a schedule.";
      await recordFiring(schedule.id, { error: reason });
      tick.skipped.push({ workflowId: schedule.workflowId, reason });
      continue;
    }
    try {
      const { runId } = await start({
        workspaceId: schedule.workspaceId,
        workflowId: schedule.workflowId,
        versionId: version.id,
        document: version.document,
        inputs: schedule.inputs,
        trigger: "schedule",
      });
      await recordFiring(schedule.id, { runId });
      tick.started.push(runId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await recordFiring(schedule.id, { error: reason });
      tick.skipped.push({ workflowId: schedule.workflowId, reason });
    }
  }
  return tick;
}

/** Starts the periodic tick in this process; returns a stop function. A failing tick is logged, never thrown. */
export function startScheduler(intervalMs = SCHEDULER_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    fireDueSchedules()
      .catch((error: unknown) => console.error("Scheduler tick failed:", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
