/**
 * What the demo-mode banner says on a request (isomorphic): read by the root layout
 * (lib/services/demo-banner), rendered by components/ui/demo-mode-banner.
 */
export interface DemoBannerState {
  /** The workspace's stored model providers (empty: nothing real is configured at all). */
  providerNames: string[];
  /** Whether the reader may change providers (owners and admins); anyone else is told whom to ask instead of getting a link. */
  manageProviders: boolean;
}
