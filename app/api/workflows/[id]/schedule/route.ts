import { getEditorContext, getRequestContext } from "@/lib/db/context";
import { deleteSchedule, getSchedule, saveSchedule } from "@/lib/db/schedule-repository";
import { getWorkflow } from "@/lib/db/workflow-repository";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { nextRunTimes, scheduleInputSchema } from "@/lib/workflow/schedule";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

/** The workflow in the caller's workspace (viewers may read; `action` is a change they may not make). */
async function ownedWorkflow(id: string, action?: string) {
  const { workspaceId } = action ? await getEditorContext(action) : await getRequestContext();
  const workflow = await getWorkflow(id);
  return workflow && workflow.workspaceId === workspaceId ? workflow : null;
}

function notFound(id: string): Response {
  return errorResponse(404, "workflow_not_found", `Workflow ${id} does not exist.`);
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
    if (!(await ownedWorkflow(id))) return notFound(id);
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
    const workflow = await ownedWorkflow(id, "schedule workflows");
    if (!workflow) return notFound(id);
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
    if (!(await ownedWorkflow(id, "schedule workflows"))) return notFound(id);
    await deleteSchedule(id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
