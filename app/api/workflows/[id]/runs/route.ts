import { json, route } from "@/lib/http/route";
import { parseRunListQuery } from "@/lib/http/run-list-query";
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

/** The workflow's run history: the filters of `/api/runs` (lib/http/run-list-query.ts); a bad value is a 422 naming it. */
export const GET = route({ auth: "session", params: workflowPathSchema }, async ({ request, principal, params }) =>
  listRuns(principal, { ...parseRunListQuery(new URL(request.url).searchParams), workflowId: params.id }),
);
