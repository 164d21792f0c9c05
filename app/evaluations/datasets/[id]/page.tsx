import { DatasetEditor } from "@/components/evaluations/dataset-editor";
import { EvaluationPage } from "@/components/evaluations/evaluation-page";

/** One dataset: its cases in a table editor, versions, import and export. */
export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <EvaluationPage title="Dataset" back={{ href: "/evaluations", label: "Evaluations" }}>
      <DatasetEditor datasetId={id} />
    </EvaluationPage>
  );
}
