import { InboxIcon } from "lucide-react";
import Link from "next/link";
import { Suspense } from "react";
import { RunHistory } from "@/components/runs/run-history";
import { Button } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** Every run of the workspace, across workflows, with filters: where a team reviews what ran. */
export default function RunsPage() {
  return (
    <Page wide>
      <PageHeader
        title="All runs"
        description="Every run of the workspace: search, filter, compare and export."
        actions={
          <Button asChild>
            <Link href="/runs/review" className="no-underline" data-testid="needs-review-link">
              <InboxIcon aria-hidden /> Needs review
            </Link>
          </Button>
        }
      />
      <Suspense fallback={<p className="m-0 text-sm text-muted-foreground">Loading…</p>}>
        <RunHistory />
      </Suspense>
    </Page>
  );
}
