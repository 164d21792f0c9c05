import { Page } from "@/components/ui/page";
import { WorkflowList } from "@/components/workflows/workflow-list";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";
import { listTagsWithLinks } from "@/lib/services/workflow-tags";
import { listWorkflows } from "@/lib/services/workflows";

export const dynamic = "force-dynamic";

/** The workflow list: read on the server, actions in the client component. */
export default async function WorkflowsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePagePrincipal();
  const [workflows, tagging, query] = await Promise.all([
    listWorkflows(principal),
    listTagsWithLinks(principal),
    searchParams,
  ]);
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return (
    <Page>
      <WorkflowList
        canEdit={can(principal, "workflow.edit")}
        tags={tagging.tags}
        initialSearch={first(query.q) ?? ""}
        initialTag={first(query.tag) ?? null}
        workflows={workflows.map((workflow) => ({
          id: workflow.id,
          name: workflow.name,
          description: workflow.description,
          updatedAt: workflow.updatedAt.toISOString(),
          lastRunStatus: workflow.lastRun?.status ?? null,
          publishedVersion: workflow.publishedVersion,
          isTemplate: workflow.isTemplate,
          tagIds: tagging.tagIdsByWorkflow.get(workflow.id) ?? [],
        }))}
      />
    </Page>
  );
}
