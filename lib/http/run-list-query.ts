import { z } from "zod";
import { listRuns } from "../db/run-repository";
import { RUN_STATUSES, RUN_TRIGGERS } from "../runs/run-status";
import { errorResponse } from "./respond";

/** Filters of a run history (`?status=&trigger=&before=&limit=`), as the history pages send them. */
export const runListQuerySchema = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  workflowId: z.string().min(1).optional(),
  /** Only runs started before this instant (ISO): the "load older" cursor. */
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * Answers a run-history request: the page of runs and the cursor of the next one (null at the end),
 * or a 400 naming the query parameter at fault.
 */
export async function respondWithRuns(request: Request, workspaceId: string, workflowId?: string): Promise<Response> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = runListQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "query";
    return errorResponse(400, "invalid_query", `${field}: ${issue?.message ?? "invalid"}`, { field });
  }
  const { limit, before, ...filter } = parsed.data;
  const runs = await listRuns(workspaceId, {
    ...filter,
    workflowId: workflowId ?? filter.workflowId,
    before: before ? new Date(before) : undefined,
    limit,
  });
  const last = runs.at(-1);
  const nextBefore = runs.length === limit && last ? new Date(last.startedAt).toISOString() : null;
  return Response.json({ runs, nextBefore });
}
