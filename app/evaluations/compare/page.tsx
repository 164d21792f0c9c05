import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { EvaluationComparisonView } from "@/components/evaluations/evaluation-comparison";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** Two evaluation runs compared (`?base=&candidate=`). */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<{ base?: string; candidate?: string }>;
}) {
  const { base, candidate } = await searchParams;
  return (
    <Page wide>
      <PageHeader
        title="Compare evaluations"
        actions={
          <Link href="/evaluations" className={buttonVariants({ variant: "outline" })}>
            <ArrowLeftIcon aria-hidden="true" /> Evaluations
          </Link>
        }
      />
      {base && candidate ? (
        <EvaluationComparisonView baseId={base} candidateId={candidate} />
      ) : (
        <p className="m-0 text-sm text-muted-foreground">Pick two evaluation runs on the Evaluations page.</p>
      )}
    </Page>
  );
}
