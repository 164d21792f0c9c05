import { GitCompareIcon } from "lucide-react";
import { RunCompareView } from "@/components/runs/run-compare-view";
import { EmptyState } from "@/components/ui/empty-state";
import { Page, PageHeader } from "@/components/ui/page";

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Two runs side by side (`?a=<runId>&b=<runId>`). */
export default async function CompareRunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = await searchParams;
  const a = first(query.a);
  const b = first(query.b);
  return (
    <Page wide>
      <PageHeader title="Compare runs" />
      {a && b ? (
        <RunCompareView runIdA={a} runIdB={b} />
      ) : (
        <EmptyState
          data-testid="compare-missing"
          icon={<GitCompareIcon />}
          title="Two runs to compare"
          description={
            <>
              Open a run and use Compare, or give two run ids as <code>?a=</code> and <code>?b=</code>.
            </>
          }
        />
      )}
    </Page>
  );
}
