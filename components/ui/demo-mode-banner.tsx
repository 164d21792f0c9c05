/**
 * Shown on every page while no model provider is configured, so nobody mistakes demo answers or
 * stubbed web APIs for real ones.
 */
export function DemoModeBanner() {
  return (
    <div role="note" className="demo-mode-banner" data-testid="demo-mode-banner">
      <strong>Demo mode.</strong> No model provider is configured: models answer with the offline Trellis demo model,
      and the weather, currency and ticket tools call the local demo stub, not the real APIs. Set{" "}
      <code>OPENAI_API_KEY</code> / <code>OPENAI_BASE_URL</code> or add a provider in{" "}
      <a href="/settings/providers">Settings</a>.
    </div>
  );
}
