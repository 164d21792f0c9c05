import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { EvaluationRunView } from "@/components/evaluations/evaluation-run-view";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** One evaluation run: live progress, totals, per-case results. */
export default async function EvaluationRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Page wide>
      <PageHeader
        title="Evaluation"
        actions={
          <Link href="/evaluations" className={buttonVariants({ variant: "outline" })}>
            <ArrowLeftIcon aria-hidden="true" /> Evaluations
          </Link>
        }
      />
      <EvaluationRunView evaluationId={id} />
    </Page>
  );
}
