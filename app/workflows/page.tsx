import { WorkflowList } from "@/components/workflows/workflow-list";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";
import { listWorkflows } from "@/lib/services/workflows";

export const dynamic = "force-dynamic";

/** The workflow list: read on the server, actions in the client component. */
export default async function WorkflowsPage() {
  const principal = await requirePagePrincipal();
  const workflows = await listWorkflows(principal);
  return (
    <main className="page">
      <WorkflowList
        canEdit={can(principal, "workflow.edit")}
        canManage={can(principal, "settings.manage")}
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
