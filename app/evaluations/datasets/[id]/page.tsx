import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { DatasetEditor } from "@/components/evaluations/dataset-editor";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** One dataset: its cases in a table editor, versions, import and export. */
export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Page wide>
      <PageHeader
        title="Dataset"
        actions={
          <Link href="/evaluations" className={buttonVariants({ variant: "outline" })}>
            <ArrowLeftIcon aria-hidden="true" /> Evaluations
          </Link>
        }
      />
      <DatasetEditor datasetId={id} />
    </Page>
  );
}
