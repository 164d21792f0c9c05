import "server-only";
import { listProviderNames } from "../db/provider-repository";
import { currentPrincipal } from "./access/session";
import { isDemoMode } from "./demo-mode";

/** What the demo-mode banner says on this request, or null when there is nothing to say. */
export interface DemoBannerState {
  /** The workspace's stored model providers (empty: nothing real is configured at all). */
  providerNames: string[];
}

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
  return { providerNames: principal ? await listProviderNames(principal.workspaceId) : [] };
}
