import { route } from "@/lib/http/route";
import { parseRunListQuery } from "@/lib/http/run-list-query";
import { listRuns } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

/**
 * Every run of the workspace: filters, search, sort and cursor of lib/http/run-list-query.ts
 * (`?status=failed,partial&q=refund&sort=cost&cursor=…`); a bad value is a 422 naming the field.
 */
export const GET = route({ auth: "session" }, async ({ request, principal }) =>
  listRuns(principal, parseRunListQuery(new URL(request.url).searchParams)),
);
