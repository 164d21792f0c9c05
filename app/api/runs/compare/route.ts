import { z } from "zod";
import { route } from "@/lib/http/route";
import { compareRuns } from "@/lib/services/run-compare";

export const dynamic = "force-dynamic";

const querySchema = z.object({ a: z.string().min(1).max(200), b: z.string().min(1).max(200) });

/** Two runs side by side (`?a=<runId>&b=<runId>`): details, node-by-node comparison, workflow diff. */
export const GET = route({ auth: "session", query: querySchema }, async ({ principal, query }) =>
  compareRuns(principal, query.a, query.b),
);
