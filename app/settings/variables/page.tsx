import { WorkspaceVariablesManager } from "@/components/settings/workspace-variables-manager";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { listEnvironmentVariables } from "@/lib/services/workspace-variables";

export const dynamic = "force-dynamic";

/** Workspace environment variables, read by templates as `{{env.NAME}}`. */
export default async function VariableSettingsPage() {
  const principal = await requirePagePrincipal();
  return <WorkspaceVariablesManager {...(await listEnvironmentVariables(principal))} />;
}
