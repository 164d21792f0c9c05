import { EvaluationPage } from "@/components/evaluations/evaluation-page";
import { EvaluationsHome } from "@/components/evaluations/evaluations-home";

/** Datasets and evaluation runs: "did my change make the agent better?" */
export default function EvaluationsPage() {
  return (
    <EvaluationPage title="Evaluations" back={{ href: "/workflows", label: "Workflows" }}>
      <EvaluationsHome />
    </EvaluationPage>
  );
}
