import { WorkflowList } from "@/components/workflows/workflow-list";
import { getRequestContext } from "@/lib/db/context";
import { listWorkflows } from "@/lib/db/workflow-repository";

export const dynamic = "force-dynamic";

/** The workflow list: read on the server, actions in the client component. */
export default async function WorkflowsPage() {
  const { workspaceId, role } = await getRequestContext();
  const workflows = await listWorkflows(workspaceId);
  return (
    <main className="page">
      <WorkflowList
        canEdit={role !== "viewer"}
        canManage={role === "owner" || role === "admin"}
        workflows={workflows.map((workflow) => ({
          id: workflow.id,
          name: workflow.name,
          description: workflow.description,
          updatedAt: workflow.updatedAt.toISOString(),
          lastRunStatus: workflow.lastRun?.status ?? null,
          publishedVersion: workflow.publishedVersion,
          isTemplate: workflow.isTemplate,
        }))}
      />
    </main>
  );
}
