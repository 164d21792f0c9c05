import { Cron } from "croner";
import { z } from "zod";

/** Cron presets the schedule dialog offers (any five-field expression works). */
export const SCHEDULE_PRESETS = [
  { label: "Every 15 minutes", cron: "*/15 * * * *" },
  { label: "Every hour", cron: "0 * * * *" },
  { label: "Every day at 09:00", cron: "0 9 * * *" },
  { label: "Weekdays at 09:00", cron: "0 9 * * 1-5" },
  { label: "Mondays at 08:00", cron: "0 8 * * 1" },
] as const;

/** Why a cron expression or time zone is unusable, or null when it is fine. */
function cronProblem(cron: string, timezone: string): { path: "cron" | "timezone"; message: string } | null {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
  } catch {
    return { path: "timezone", message: `"${timezone}" is not an IANA time zone (e.g. Europe/Athens, UTC)` };
  }
  if (cron.trim().split(/\s+/).length !== 5) {
    return { path: "cron", message: "Use five fields: minute hour day-of-month month day-of-week" };
  }
  try {
    new Cron(cron, { paused: true, timezone });
  } catch (error) {
    return { path: "cron", message: (error as Error).message.replace(/^CronPattern:\s*/, "") };
  }
  return null;
}

/** A schedule as the editor saves it. */
export const scheduleInputSchema = z
  .object({
    cron: z.string().trim().min(1, "Enter a cron expression").max(100),
    timezone: z.string().trim().min(1, "Enter a time zone").max(64).default("UTC"),
    /** Start-node inputs of every scheduled run. */
    inputs: z.record(z.string(), z.unknown()).default({}),
    enabled: z.boolean().default(true),
  })
  .superRefine((input, context) => {
    const problem = cronProblem(input.cron, input.timezone);
    if (problem) context.addIssue({ code: "custom", path: [problem.path], message: problem.message });
  });

/** A validated schedule. */
export type ScheduleInput = z.output<typeof scheduleInputSchema>;

/** The next `count` times a valid expression fires after `after`, in its time zone. */
export function nextRunTimes(cron: string, timezone: string, after: Date, count: number): Date[] {
  return new Cron(cron, { paused: true, timezone }).nextRuns(count, after);
}
