import { route } from "@/lib/http/route";
import { runListQuerySchema } from "@/lib/http/run-list-query";
import { listRuns } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

/** Every run of the workspace, newest first: `?status=&trigger=&workflowId=&before=&limit=`. */
export const GET = route({ auth: "session", query: runListQuerySchema }, async ({ principal, query }) =>
  listRuns(principal, query),
);
