import { deleteSchedule, getSchedule, saveSchedule } from "@/lib/db/schedule-repository";
import { requireWorkflowAccess } from "@/lib/db/workflow-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { nextRunTimes, scheduleInputSchema } from "@/lib/workflow/schedule";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

/** The schedule (null when none) and its next three firing times. */
async function scheduleBody(workflowId: string) {
  const schedule = await getSchedule(workflowId);
  const nextRuns =
    schedule?.enabled === true
      ? nextRunTimes(schedule.cron, schedule.timezone, new Date(), 3).map((date) => date.toISOString())
      : [];
  return { schedule, nextRuns };
}

/** The workflow's schedule. */
export async function GET(_request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    await requireWorkflowAccess(id);
    return Response.json(await scheduleBody(id));
  } catch (error) {
    return mapError(error);
  }
}

/** Sets the schedule: the latest published version runs at the cron times with these inputs. */
export async function PUT(request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, scheduleInputSchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workflow } = await requireWorkflowAccess(id, "schedule workflows");
    await saveSchedule(workflow.workspaceId, id, parsed.data);
    return Response.json(await scheduleBody(id));
  } catch (error) {
    return mapError(error);
  }
}

/** Removes the schedule. */
export async function DELETE(_request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    await requireWorkflowAccess(id, "schedule workflows");
    await deleteSchedule(id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
