import "server-only";
import type { DemoBannerState } from "../contracts/demo-banner-view";
import { listProviderNames } from "../db/provider-repository";
import { can } from "./access/policy";
import { currentPrincipal } from "./access/session";
import { isDemoMode } from "./demo-mode";

/**
 * The banner state for the root layout. `isDemoMode()` only reads the environment, so on its own
 * the banner kept saying "no model provider is configured" after one was added in the settings:
 * the stored providers of the signed-in workspace are read here on every request (the layout is
 * dynamic and `router.refresh()` after a save re-renders it). Signed out (the login page) there is
 * no workspace, so the banner shows the environment's answer alone.
 */
export async function readDemoBannerState(): Promise<DemoBannerState | null> {
  if (!isDemoMode()) return null;
  const principal = await currentPrincipal().catch(() => null);
  return {
    providerNames: principal ? await listProviderNames(principal.workspaceId) : [],
    manageProviders: can(principal, "settings.manage"),
  };
}
