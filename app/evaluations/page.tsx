import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { EvaluationsHome } from "@/components/evaluations/evaluations-home";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** Datasets and evaluation runs: "did my change make the agent better?" */
export default function EvaluationsPage() {
  return (
    <Page wide>
      <PageHeader
        title="Evaluations"
        actions={
          <Link href="/workflows" className={buttonVariants({ variant: "outline" })}>
            <ArrowLeftIcon aria-hidden="true" /> Workflows
          </Link>
        }
      />
      <EvaluationsHome />
    </Page>
  );
}
