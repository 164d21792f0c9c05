import Link from "next/link";
import { Suspense } from "react";
import { RunHistory } from "@/components/runs/run-history";

/** A workflow's run history. */
export default async function WorkflowRunsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main className="page">
      <header className="page-header">
        <h1>Runs</h1>
        <Link href={`/workflows/${id}`} className="button">
          Back to the editor
        </Link>
      </header>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <RunHistory workflowId={id} />
      </Suspense>
    </main>
  );
}
