import { NeedsReviewQueue } from "@/components/runs/needs-review-queue";
import { Page, PageHeader } from "@/components/ui/page";

/** The workspace's needs-review queue: what a team lead goes through after a day of runs. */
export default function NeedsReviewPage() {
  return (
    <Page wide>
      <PageHeader title="Needs review" />
      <NeedsReviewQueue />
    </Page>
  );
}
