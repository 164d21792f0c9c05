import { ExternalLinkIcon, InboxIcon } from "lucide-react";
import Link from "next/link";
import { AddToDatasetButton } from "@/components/evaluations/add-to-dataset-button";
import { RunDetailView } from "@/components/runs/run-detail-view";
import { Button } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";
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
    <Page wide>
      <PageHeader
        title={shared ? "Shared run" : "Run"}
        description={<code className="text-xs">{runId}</code>}
        actions={
          <>
            {shared && (
              <Button asChild>
                <Link href={`/runs/${runId}`} className="no-underline" data-testid="leave-share-view">
                  <ExternalLinkIcon aria-hidden /> Open full view
                </Link>
              </Button>
            )}
            <AddToDatasetButton runId={runId} />
            <Button asChild>
              <Link href="/runs/review" className="no-underline" data-testid="needs-review-link">
                <InboxIcon aria-hidden /> Needs review
              </Link>
            </Button>
          </>
        }
      />
      <RunDetailView
        runId={runId}
        focus={{ nodeId: first(query.node), nodeRunId: first(query.nodeRun) }}
        readOnly={shared}
        canRun={can(principal, "workflow.run")}
      />
    </Page>
  );
}
