import { z } from "zod";
import { route } from "@/lib/http/route";
import { runHistoryFilterOptions } from "@/lib/services/run-history-options";

export const dynamic = "force-dynamic";

const filterOptionsQuerySchema = z.object({ workflowId: z.string().min(1).max(200).optional() });

/** `GET /api/runs/filter-options[?workflowId=]`: the history's workflow, version and API key choices. */
export const GET = route({ auth: "session", query: filterOptionsQuerySchema }, async ({ principal, query }) =>
  runHistoryFilterOptions(principal, query.workflowId),
);
