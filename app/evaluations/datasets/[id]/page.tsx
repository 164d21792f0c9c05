import Link from "next/link";
import { DatasetEditor } from "@/components/evaluations/dataset-editor";

/** One dataset: its cases in a table editor, versions, import and export. */
export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Dataset</h1>
        <Link href="/evaluations" className="button">
          Evaluations
        </Link>
      </header>
      <DatasetEditor datasetId={id} />
    </main>
  );
}
