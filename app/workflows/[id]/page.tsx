import { notFound } from "next/navigation";
import { WorkflowEditor } from "@/components/canvas/workflow-editor";
import { getWorkflow } from "@/lib/db/workflow-repository";

export const dynamic = "force-dynamic";

/** The editor page: loads the draft on the server, then hands it to the client editor. */
export default async function WorkflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const workflow = await getWorkflow(id);
  if (!workflow) notFound();
  return (
    <WorkflowEditor
      workflow={{ id: workflow.id, name: workflow.name, draft: workflow.draft, draftRevision: workflow.draftRevision }}
    />
  );
}
