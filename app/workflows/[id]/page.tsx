import { notFound } from "next/navigation";
import { WorkflowEditor } from "@/components/canvas/workflow-editor";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { openWorkflowEditor } from "@/lib/services/workflows";
import { isTrellisError } from "@/lib/workflow/errors";

export const dynamic = "force-dynamic";

/** The editor page: loads the draft on the server, then hands it to the client editor. */
export default async function WorkflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await requirePagePrincipal();
  // Another workspace's workflow is as unknown as a missing one (the service says "not found").
  const opened = await openWorkflowEditor(principal, id).catch((error: unknown) => {
    if (isTrellisError(error) && error.code === "workflow_not_found") return null;
    throw error;
  });
  if (!opened) notFound();
  const { workflow, publishedVersion, readOnly } = opened;
  return (
    <WorkflowEditor
      workflow={{
        id: workflow.id,
        name: workflow.name,
        slug: workflow.slug,
        draft: workflow.draft,
        draftRevision: workflow.draftRevision,
        publishedVersion,
        readOnly,
      }}
    />
  );
}
