import "server-only";
import {
  deleteSchedule as deleteScheduleRow,
  getSchedule,
  saveSchedule as saveScheduleRow,
} from "../db/schedule-repository";
import { nextRunTimes, type ScheduleInput } from "../workflow/schedule";
import type { Principal } from "./access/principal";
import { loadWorkflow } from "./workflows";

/** A workflow's schedule (null when none) and its next three firing times. */
export async function describeSchedule(workflowId: string) {
  const schedule = await getSchedule(workflowId);
  const nextRuns =
    schedule?.enabled === true
      ? nextRunTimes(schedule.cron, schedule.timezone, new Date(), 3).map((date) => date.toISOString())
      : [];
  return { schedule, nextRuns };
}

/** The workflow's schedule, for anyone who may see the workflow. */
export async function readSchedule(principal: Principal | null, workflowId: string) {
  await loadWorkflow(principal, workflowId);
  return describeSchedule(workflowId);
}

/** Sets the schedule: the latest published version runs at the cron times with these inputs. */
export async function saveSchedule(principal: Principal | null, workflowId: string, input: ScheduleInput) {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.schedule");
  await saveScheduleRow(workflow.workspaceId, workflowId, input);
  return describeSchedule(workflowId);
}

/** Removes the schedule. */
export async function deleteSchedule(principal: Principal | null, workflowId: string): Promise<void> {
  await loadWorkflow(principal, workflowId, "workflow.schedule");
  await deleteScheduleRow(workflowId);
}
