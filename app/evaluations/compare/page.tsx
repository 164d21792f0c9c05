import { EvaluationComparisonView } from "@/components/evaluations/evaluation-comparison";
import { EvaluationPage } from "@/components/evaluations/evaluation-page";

/** Two evaluation runs compared (`?base=&candidate=`). */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<{ base?: string; candidate?: string }>;
}) {
  const { base, candidate } = await searchParams;
  return (
    <EvaluationPage title="Compare evaluations" back={{ href: "/evaluations", label: "Evaluations" }}>
      {base && candidate ? (
        <EvaluationComparisonView baseId={base} candidateId={candidate} />
      ) : (
        <p className="m-0 text-sm text-muted-foreground">Pick two evaluation runs on the Evaluations page.</p>
      )}
    </EvaluationPage>
  );
}
