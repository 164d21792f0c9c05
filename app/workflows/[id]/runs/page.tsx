import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { Suspense } from "react";
import { RunHistory } from "@/components/runs/run-history";
import { Button } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** A workflow's run history. */
export default async function WorkflowRunsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Page wide>
      <PageHeader
        title="Runs"
        description="This workflow's runs, newest first."
        actions={
          <Button asChild>
            <Link href={`/workflows/${id}`} className="no-underline">
              <ArrowLeftIcon aria-hidden /> Back to the editor
            </Link>
          </Button>
        }
      />
      <Suspense fallback={<p className="m-0 text-sm text-muted-foreground">Loading…</p>}>
        <RunHistory workflowId={id} />
      </Suspense>
    </Page>
  );
}
