import { ApiKeysManager } from "@/components/settings/api-keys-manager";
import { listApiKeys } from "@/lib/db/api-key-repository";
import { getAdminContext } from "@/lib/db/context";
import { listWorkflows } from "@/lib/db/workflow-repository";

export const dynamic = "force-dynamic";

/** API keys of the workspace (prefixes only; secrets are shown once, at creation). */
export default async function ApiKeySettingsPage() {
  const { workspaceId } = await getAdminContext("manage API keys");
  const [keys, workflows] = await Promise.all([listApiKeys(workspaceId), listWorkflows(workspaceId)]);
  return (
    <ApiKeysManager
      keys={keys.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        workflowId: key.workflowId,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
      }))}
      workflows={workflows.map((workflow) => ({ id: workflow.id, name: workflow.name, slug: workflow.slug }))}
    />
  );
}
