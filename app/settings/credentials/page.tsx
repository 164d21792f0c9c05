import { HttpCredentialsManager } from "@/components/settings/http-credentials-manager";
import { getAdminContext } from "@/lib/db/context";
import { listHttpCredentials } from "@/lib/db/http-credential-repository";

export const dynamic = "force-dynamic";

/** HTTP credentials of the workspace (names and where they go; never secrets). */
export default async function CredentialSettingsPage() {
  const { workspaceId } = await getAdminContext();
  return <HttpCredentialsManager credentials={await listHttpCredentials(workspaceId)} />;
}
