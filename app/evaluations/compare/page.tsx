import Link from "next/link";
import { EvaluationComparisonView } from "@/components/evaluations/evaluation-comparison";

/** Two evaluation runs compared (`?base=&candidate=`). */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<{ base?: string; candidate?: string }>;
}) {
  const { base, candidate } = await searchParams;
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Compare evaluations</h1>
        <Link href="/evaluations" className="button">
          Evaluations
        </Link>
      </header>
      {base && candidate ? (
        <EvaluationComparisonView baseId={base} candidateId={candidate} />
      ) : (
        <p className="muted">Pick two evaluation runs on the Evaluations page.</p>
      )}
    </main>
  );
}
