import { ProvidersManager } from "@/components/settings/providers-manager";
import { getAdminContext } from "@/lib/db/context";
import { listProviders } from "@/lib/db/credential-repository";
import { describeModelMode } from "@/lib/services/model-catalog";

export const dynamic = "force-dynamic";

/** Model providers of the workspace (no secrets) and how models resolve on this server. */
export default async function ProviderSettingsPage() {
  const { workspaceId } = await getAdminContext();
  return <ProvidersManager providers={await listProviders(workspaceId)} mode={describeModelMode()} />;
}
