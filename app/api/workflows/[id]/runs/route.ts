import { json, route } from "@/lib/http/route";
import { runListQuerySchema } from "@/lib/http/run-list-query";
import { listRuns, startEditorRun } from "@/lib/services/runs";
import { workflowPathSchema } from "../schema";
import { startRunBodySchema } from "./schema";

/** Starts an editor run of the given (or saved) draft; answers at once with the run id. */
export const POST = route(
  { auth: "session", params: workflowPathSchema, body: startRunBodySchema },
  async ({ principal, params, body }) => {
    const { runId } = await startEditorRun(principal, params.id, body);
    return json({ runId }, 201);
  },
);

/** The workflow's run history, newest first: `?status=&trigger=&before=&limit=`. */
export const GET = route(
  { auth: "session", params: workflowPathSchema, query: runListQuerySchema },
  async ({ principal, params, query }) => listRuns(principal, { ...query, workflowId: params.id }),
);
