import { ProvidersManager } from "@/components/settings/providers-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listProviders } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** Model providers of the workspace (no secrets) and how models resolve on this server. */
export default async function ProviderSettingsPage() {
  const { providers, mode } = await listProviders(await requirePagePrincipal());
  return <ProvidersManager providers={providers} mode={mode} />;
}
