import { FlaskConicalIcon } from "lucide-react";
import Link from "next/link";
import type { DemoBannerState } from "@/lib/contracts/demo-banner-view";

/**
 * Shown on every page while the `default` provider answers with the offline demo model, so nobody
 * mistakes demo answers or stubbed web APIs for real ones. It wraps instead of truncating, and it
 * says so when the workspace has stored providers (nodes set to them call the real model).
 */
export function DemoModeBanner({ state }: { state: DemoBannerState }) {
  const configured = state.providerNames.length > 0;
  return (
    <div
      role="note"
      className="flex shrink-0 items-start gap-2 border-b border-warning/30 bg-warning/10 px-4 py-1.5 text-sm text-foreground"
      data-testid="demo-mode-banner"
      data-providers={state.providerNames.length}
    >
      <FlaskConicalIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
      {configured ? (
        <p className="m-0 min-w-0">
          <strong>Demo model for “default”.</strong> Nodes on the <code>default</code> provider answer with the offline
          demo model and the example web tools call the local demo stub; nodes set to{" "}
          {state.providerNames.map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : ""}
              <code>{name}</code>
            </span>
          ))}{" "}
          call the real model.
          {state.manageProviders ? (
            <>
              {" "}
              <Link href="/settings/providers" className="font-medium underline underline-offset-2">
                Providers
              </Link>
            </>
          ) : null}
        </p>
      ) : (
        <p className="m-0 min-w-0">
          <strong>Demo mode.</strong> No model provider is configured: models answer with the offline Trellis demo
          model, and the weather, currency and ticket tools call the local demo stub, not the real APIs. Set{" "}
          <code>OPENAI_API_KEY</code> / <code>OPENAI_BASE_URL</code> or{" "}
          {state.manageProviders ? (
            <Link href="/settings/providers" className="font-medium underline underline-offset-2">
              add a provider
            </Link>
          ) : (
            "ask a workspace owner or admin to add a provider"
          )}
          .
        </p>
      )}
    </div>
  );
}
