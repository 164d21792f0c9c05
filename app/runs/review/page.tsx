import Link from "next/link";
import { NeedsReviewQueue } from "@/components/runs/needs-review-queue";

/** The workspace's needs-review queue: what a team lead goes through after a day of runs. */
export default function NeedsReviewPage() {
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Needs review</h1>
        <Link href="/runs" className="button">
          All runs
        </Link>
      </header>
      <NeedsReviewQueue />
    </main>
  );
}
