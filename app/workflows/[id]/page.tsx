import { notFound } from "next/navigation";
import { WorkflowEditor } from "@/components/canvas/workflow-editor";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { pythonSandboxConfigured } from "@/lib/services/code-sandbox";
import { getWorkflowVersion } from "@/lib/services/workflow-versions";
import { openWorkflowEditor } from "@/lib/services/workflows";
import { isTrellisError } from "@/lib/workflow/errors";

export const dynamic = "force-dynamic";

/** `?version=N` as a version number; null when absent or not a number. */
function versionParameter(value: string | string[] | undefined): number | null {
  return typeof value === "string" && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

/**
 * The editor page: loads the draft on the server, then hands it to the client editor. With
 * `?version=N` it shows that published version read-only instead (an unknown version is a 404).
 */
export default async function WorkflowEditorPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const viewing = versionParameter((await searchParams).version);
  const principal = await requirePagePrincipal();
  // Another workspace's workflow is as unknown as a missing one (the service says "not found").
  const opened = await openWorkflowEditor(principal, id).catch((error: unknown) => {
    if (isTrellisError(error) && error.code === "workflow_not_found") return null;
    throw error;
  });
  if (!opened) notFound();
  const { workflow, publishedVersion, readOnly } = opened;
  const version =
    viewing === null
      ? null
      : await getWorkflowVersion(principal, id, viewing).catch((error: unknown) => {
          if (isTrellisError(error) && error.code === "workflow_version_not_found") return null;
          throw error;
        });
  if (viewing !== null && !version) notFound();
  return (
    <WorkflowEditor
      // A new store for the version view and for the draft: switching between them never mixes the two.
      key={version ? `version-${version.version}` : "draft"}
      workflow={{
        id: workflow.id,
        name: workflow.name,
        slug: workflow.slug,
        draft: version ? version.document : workflow.draft,
        draftRevision: workflow.draftRevision,
        publishedVersion,
        readOnly: readOnly || version !== null,
        viewingVersion: version?.version ?? null,
        canEditDraft: !readOnly,
      }}
      capabilities={{ pythonSandbox: pythonSandboxConfigured() }}
    />
  );
}
