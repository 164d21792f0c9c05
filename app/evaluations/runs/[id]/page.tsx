import { EvaluationPage } from "@/components/evaluations/evaluation-page";
import { EvaluationRunView } from "@/components/evaluations/evaluation-run-view";

/** One evaluation run: live progress, totals, per-case results. */
export default async function EvaluationRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <EvaluationPage title="Evaluation" back={{ href: "/evaluations", label: "Evaluations" }}>
      <EvaluationRunView evaluationId={id} />
    </EvaluationPage>
  );
}
