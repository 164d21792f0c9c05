import type { RunDetail } from "@/lib/runs/node-run-view";

/** Pages the run detail API follows before giving up (2,000 node runs each). */
const MAX_PAGES = 50;

/**
 * The run with all its node runs: follows the run detail API's pages (`nodeRunsPage.nextCursor`).
 * Large values stay references (lib/runs/large-values.ts); the inspector loads them on demand.
 * @throws Error naming the status when the first page cannot be loaded.
 */
export async function fetchRunDetail(runId: string): Promise<RunDetail> {
  let detail: RunDetail | undefined;
  let url = `/api/runs/${encodeURIComponent(runId)}`;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await fetch(url);
    if (!response.ok) {
      if (detail) break;
      throw new Error(`Could not load the run (${response.status})`);
    }
    const body = (await response.json()) as RunDetail;
    detail = detail ? { ...body, nodeRuns: [...detail.nodeRuns, ...body.nodeRuns] } : body;
    const next = body.nodeRunsPage?.nextCursor;
    if (!next) break;
    url = `/api/runs/${encodeURIComponent(runId)}?nodeRunsAfter=${encodeURIComponent(next)}`;
  }
  if (!detail) throw new Error("Could not load the run");
  return detail;
}
