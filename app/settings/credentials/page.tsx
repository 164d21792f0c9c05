import { HttpCredentialsManager } from "@/components/settings/http-credentials-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listHttpCredentials } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** HTTP credentials of the workspace (names and where they go; never secrets). */
export default async function CredentialSettingsPage() {
  const principal = await requirePagePrincipal();
  return <HttpCredentialsManager credentials={await listHttpCredentials(principal)} />;
}
