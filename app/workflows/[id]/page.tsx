import { notFound } from "next/navigation";
import { WorkflowEditor } from "@/components/canvas/workflow-editor";
import { getRequestContext } from "@/lib/db/context";
import { getLatestVersion, getWorkflow } from "@/lib/db/workflow-repository";

export const dynamic = "force-dynamic";

/** The editor page: loads the draft on the server, then hands it to the client editor. */
export default async function WorkflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [{ workspaceId, role }, workflow, latest] = await Promise.all([
    getRequestContext(),
    getWorkflow(id),
    getLatestVersion(id),
  ]);
  // Another workspace's workflow is as unknown as a missing one.
  if (!workflow || workflow.workspaceId !== workspaceId) notFound();
  return (
    <WorkflowEditor
      workflow={{
        id: workflow.id,
        name: workflow.name,
        slug: workflow.slug,
        draft: workflow.draft,
        draftRevision: workflow.draftRevision,
        publishedVersion: latest?.version ?? null,
        readOnly: role === "viewer",
      }}
    />
  );
}
