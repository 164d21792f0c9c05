import { ApiKeysManager } from "@/components/settings/api-keys-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listWorkflows } from "@/lib/services/workflows";
import { defaultKeyRateLimit, listKeys } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** API keys of the workspace (prefixes only; secrets are shown once, at creation). */
export default async function ApiKeySettingsPage() {
  const principal = await requirePagePrincipal();
  const [keys, workflows] = await Promise.all([listKeys(principal), listWorkflows(principal)]);
  return (
    <ApiKeysManager
      keys={keys.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        scopes: key.scopes,
        workflowIds: key.workflowIds,
        allowedOrigins: key.allowedOrigins,
        rateLimitPerMinute: key.rateLimitPerMinute,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
      }))}
      workflows={workflows.map((workflow) => ({ id: workflow.id, name: workflow.name, slug: workflow.slug }))}
      defaultRateLimit={defaultKeyRateLimit()}
    />
  );
}
