import Link from "next/link";
import { EvaluationRunView } from "@/components/evaluations/evaluation-run-view";

/** One evaluation run: live progress, totals, per-case results. */
export default async function EvaluationRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Evaluation</h1>
        <Link href="/evaluations" className="button">
          Evaluations
        </Link>
      </header>
      <EvaluationRunView evaluationId={id} />
    </main>
  );
}
