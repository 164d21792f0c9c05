import { noContent, route } from "@/lib/http/route";
import { deleteSchedule, readSchedule, saveSchedule } from "@/lib/services/schedules";
import { scheduleInputSchema } from "@/lib/workflow/schedule";
import { workflowPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** The workflow's schedule (null when none) and its next three firing times. */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) =>
  readSchedule(principal, params.id),
);

/** Sets the schedule: the latest published version runs at the cron times with these inputs. */
export const PUT = route(
  { auth: "session", params: workflowPathSchema, body: scheduleInputSchema },
  async ({ principal, params, body }) => saveSchedule(principal, params.id, body),
);

/** Removes the schedule. */
export const DELETE = route({ auth: "session", params: workflowPathSchema }, async ({ principal, params }) => {
  await deleteSchedule(principal, params.id);
  return noContent();
});
