import Link from "next/link";
import { RunCompareView } from "@/components/runs/run-compare-view";

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Two runs side by side (`?a=<runId>&b=<runId>`). */
export default async function CompareRunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = await searchParams;
  const a = first(query.a);
  const b = first(query.b);
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Compare runs</h1>
        <Link href="/runs" className="button">
          All runs
        </Link>
      </header>
      {a && b ? (
        <RunCompareView runIdA={a} runIdB={b} />
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="compare-missing">
          Open a run and use Compare, or give two run ids as <code>?a=</code> and <code>?b=</code>.
        </p>
      )}
    </main>
  );
}
