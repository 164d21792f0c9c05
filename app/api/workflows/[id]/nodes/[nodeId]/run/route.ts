import { z } from "zod";
import { json, route } from "@/lib/http/route";
import { startSingleNodeRun } from "@/lib/services/runs";
import { singleNodeRunBodySchema } from "./schema";

const pathSchema = z.object({ id: z.string().min(1).max(200), nodeId: z.string().min(1).max(200) });

/** Runs one node alone with the given upstream outputs; answers at once with the run id. */
export const POST = route(
  { auth: "session", params: pathSchema, body: singleNodeRunBodySchema },
  async ({ principal, params, body }) => {
    const { runId } = await startSingleNodeRun(principal, params.id, params.nodeId, body);
    return json({ runId }, 201);
  },
);
