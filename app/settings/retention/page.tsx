import { RetentionForm } from "@/components/settings/retention-form";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";
import { getRetention } from "@/lib/services/retention";

export const dynamic = "force-dynamic";

/** How long the workspace keeps its run history. */
export default async function RetentionSettingsPage() {
  const principal = await requirePagePrincipal();
  const retention = await getRetention(principal);
  return <RetentionForm retention={retention} canEdit={can(principal, "settings.manage")} />;
}
