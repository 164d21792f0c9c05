"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { ProviderView } from "@/lib/db/provider-config";
import type { ModelMode } from "@/lib/services/model-catalog";
import { ProviderDialog } from "./provider-dialog";
import { sendJson } from "./settings-api";

/** Says plainly which model answers nodes on this server, so nobody mistakes a demo answer for a real one. */
function ModeBanner({ mode, providerCount }: { mode: ModelMode; providerCount: number }) {
  if (mode.demoMode) {
    return (
      <div
        className="mb-4 rounded-lg border border-warning/35 bg-warning/8 px-3 py-2.5 text-sm"
        data-testid="provider-mode-banner"
        data-demo="true"
      >
        <b>Demo mode.</b> No OPENAI_API_KEY or OPENAI_BASE_URL is set, so nodes using the <code>default</code> provider
        answer with the offline demo model (labelled “demo” in runs).{" "}
        {providerCount > 0
          ? "Nodes set to a provider below always call that provider: the demo model is never used in its place."
          : "Add a provider below and pick it in a node to use a real model; the demo model is never used in place of a configured provider."}
      </div>
    );
  }
  return (
    <div
      className="mb-4 rounded-lg border border-success/35 bg-success/8 px-3 py-2.5 text-sm"
      data-testid="provider-mode-banner"
      data-demo="false"
    >
      <b>Real models.</b>{" "}
      {mode.defaultProviderConfigured
        ? "The default provider comes from OPENAI_BASE_URL / OPENAI_API_KEY."
        : "The default provider is not configured."}{" "}
      {mode.demoModelAvailable
        ? "The demo model is only used by nodes that explicitly pick the “demo” provider."
        : "The demo model is disabled (TRELLIS_DEMO_MODEL=off)."}
    </div>
  );
}

/** Named OpenAI-compatible providers: list, add, edit, test and delete (confirmed). */
export function ProvidersManager({ providers, mode }: { providers: ProviderView[]; mode: ModelMode }) {
  const router = useRouter();
  const [editing, setEditing] = useState<{ provider?: ProviderView } | null>(null);
  const [deleting, setDeleting] = useState<ProviderView | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const remove = async (provider: ProviderView) => {
    const result = await sendJson(`/api/providers/${encodeURIComponent(provider.name)}`, "DELETE");
    setDeleting(null);
    setMessage(result.ok ? `Deleted “${provider.name}”.` : result.message);
    router.refresh();
  };

  useToastMessage(message);
  return (
    <div data-testid="providers">
      <header className="page-header">
        <h1>Model providers</h1>
        <button
          type="button"
          className="button button-primary"
          data-testid="add-provider"
          onClick={() => setEditing({})}
        >
          Add provider
        </button>
      </header>
      <ModeBanner mode={mode} providerCount={providers.length} />
      {message && (
        <p className="sr-only" data-testid="providers-message">
          {message}
        </p>
      )}
      {providers.length === 0 ? (
        <p className="muted" data-testid="providers-empty">
          No providers yet. Any OpenAI-compatible endpoint works: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio,
          DeepSeek…
        </p>
      ) : (
        <table className="table" data-testid="provider-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Base URL</th>
              <th>API key</th>
              <th>Models</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {providers.map((provider) => (
              <tr key={provider.name} data-testid="provider-row" data-name={provider.name}>
                <td>
                  <b>{provider.name}</b>
                </td>
                <td>
                  <code>{provider.baseURL}</code>
                </td>
                <td>
                  {provider.hasApiKey ? <span className="badge">stored</span> : <span className="muted">none</span>}
                </td>
                <td>
                  {provider.models.length > 0 ? (
                    provider.models.join(", ")
                  ) : (
                    <span className="muted">default model</span>
                  )}
                  {Object.keys(provider.profiles).length > 0 && (
                    <div className="muted">{Object.keys(provider.profiles).length} profile overrides</div>
                  )}
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button-ghost"
                    data-testid="edit-provider"
                    onClick={() => setEditing({ provider })}
                  >
                    Edit
                  </button>
                  <DeleteButton testId="delete-provider" onClick={() => setDeleting(provider)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <ProviderDialog
          key={editing.provider?.name ?? "new"}
          provider={editing.provider}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setMessage(text);
            router.refresh();
          }}
        />
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete provider?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
        testId="delete-provider-dialog"
        confirmTestId="confirm-delete-provider"
      >
        <p>
          “{deleting?.name}” and its API key will be deleted. Nodes that use it will fail with “model not configured” —
          they never fall back to the demo model.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
