import { json, route } from "@/lib/http/route";
import { runPathSchema } from "@/lib/http/run-routes";
import { rerunInputSchema, rerunRun } from "@/lib/services/run-rerun";

/** Runs the workflow again with this run's inputs (`target`: same | draft | latest); the new run links back. */
export const POST = route(
  { auth: "session", params: runPathSchema, body: rerunInputSchema },
  async ({ principal, params, body }) => {
    const started = await rerunRun(principal, params.runId, body.target);
    return json({ runId: started.runId, rerunOfId: started.rerunOfId }, 202);
  },
);
