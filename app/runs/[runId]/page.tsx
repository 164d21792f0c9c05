import Link from "next/link";
import { AddToDatasetButton } from "@/components/evaluations/add-to-dataset-button";
import { RunDetailView } from "@/components/runs/run-detail-view";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * One run: review, actions, usage, timeline and node-run inspector, from stored rows.
 * `?node=&nodeRun=` opens with that node run selected (links from comments); `?view=share` is the
 * read-only view a member shares with a colleague (still members only: the page needs a session).
 */
export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ runId }, query, principal] = await Promise.all([params, searchParams, requirePagePrincipal()]);
  const shared = first(query.view) === "share";
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>
          {shared ? "Shared run" : "Run"} {runId}
        </h1>
        <div className="flex items-center gap-2">
          {shared && (
            <Link href={`/runs/${runId}`} className="button" data-testid="leave-share-view">
              Open full view
            </Link>
          )}
          <AddToDatasetButton runId={runId} />
          <Link href="/runs/review" className="button" data-testid="needs-review-link">
            Needs review
          </Link>
          <Link href="/runs" className="button">
            All runs
          </Link>
        </div>
      </header>
      <RunDetailView
        runId={runId}
        focus={{ nodeId: first(query.node), nodeRunId: first(query.nodeRun) }}
        readOnly={shared}
        canRun={can(principal, "workflow.run")}
      />
    </main>
  );
}
