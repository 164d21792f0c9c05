import Link from "next/link";
import { AddToDatasetButton } from "@/components/evaluations/add-to-dataset-button";
import { RunDetailView } from "@/components/runs/run-detail-view";

/** One run: timeline and node-run inspector, from stored rows. */
export default async function RunPage({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Run {runId}</h1>
        <AddToDatasetButton runId={runId} />
        <Link href="/workflows" className="button">
          Workflows
        </Link>
      </header>
      <RunDetailView runId={runId} />
    </main>
  );
}
