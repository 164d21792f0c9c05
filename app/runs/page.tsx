import Link from "next/link";
import { Suspense } from "react";
import { RunHistory } from "@/components/runs/run-history";

/** Every run of the workspace, across workflows, with filters: where a team reviews what ran. */
export default function RunsPage() {
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>All runs</h1>
        <div className="flex items-center gap-2">
          <Link href="/runs/review" className="button" data-testid="needs-review-link">
            Needs review
          </Link>
          <Link href="/workflows" className="button">
            Workflows
          </Link>
        </div>
      </header>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <RunHistory />
      </Suspense>
    </main>
  );
}
