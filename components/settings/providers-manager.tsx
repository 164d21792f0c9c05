"use client";

import { PlusIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { ProviderView } from "@/lib/contracts/provider-config";
import type { ModelMode } from "@/lib/contracts/settings-views";
import { ProviderDialog } from "./provider-dialog";
import { sendJson } from "./settings-api";

/** Says plainly which model answers nodes on this server, so nobody mistakes a demo answer for a real one. */
function ModeBanner({ mode, providerCount }: { mode: ModelMode; providerCount: number }) {
  if (mode.demoMode) {
    return (
      <Alert tone="warning" data-testid="provider-mode-banner" data-demo="true">
        <b>Demo mode.</b> No OPENAI_API_KEY or OPENAI_BASE_URL is set, so nodes using the <code>default</code> provider
        answer with the offline demo model (labelled “demo” in runs).{" "}
        {providerCount > 0
          ? "Nodes set to a provider below always call that provider: the demo model is never used in its place."
          : "Add a provider below and pick it in a node to use a real model; the demo model is never used in place of a configured provider."}
      </Alert>
    );
  }
  return (
    <Alert tone="success" data-testid="provider-mode-banner" data-demo="false">
      <b>Real models.</b>{" "}
      {mode.defaultProviderConfigured
        ? "The default provider comes from OPENAI_BASE_URL / OPENAI_API_KEY."
        : "The default provider is not configured."}{" "}
      {mode.demoModelAvailable
        ? "The demo model is only used by nodes that explicitly pick the “demo” provider."
        : "The demo model is disabled (TRELLIS_DEMO_MODEL=off)."}
    </Alert>
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
    <div data-testid="providers" className="flex flex-col gap-4">
      <PageHeader
        title="Model providers"
        actions={
          <Button variant="primary" data-testid="add-provider" onClick={() => setEditing({})}>
            <PlusIcon /> Add provider
          </Button>
        }
      />
      <ModeBanner mode={mode} providerCount={providers.length} />
      {message && (
        <p className="sr-only" data-testid="providers-message">
          {message}
        </p>
      )}
      {providers.length === 0 ? (
        <EmptyState data-testid="providers-empty">
          No providers yet. Any OpenAI-compatible endpoint works: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio,
          DeepSeek…
        </EmptyState>
      ) : (
        <Table data-testid="provider-list">
          <TableHeadRow columns={["Name", "Base URL", "API key", "Models"]} actions />
          <TableBody>
            {providers.map((provider) => (
              <TableRow key={provider.name} data-testid="provider-row" data-name={provider.name}>
                <TableCell className="font-medium">{provider.name}</TableCell>
                <TableCell className="break-all">
                  <code className="text-xs">{provider.baseURL}</code>
                </TableCell>
                <TableCell>
                  {provider.hasApiKey ? (
                    <Badge tone="success">stored</Badge>
                  ) : (
                    <span className="text-muted-foreground">none</span>
                  )}
                </TableCell>
                <TableCell>
                  {provider.models.length > 0 ? (
                    provider.models.join(", ")
                  ) : (
                    <span className="text-muted-foreground">default model</span>
                  )}
                  {Object.keys(provider.profiles).length > 0 && (
                    <div className="text-xs text-muted-foreground">
                      {Object.keys(provider.profiles).length} profile overrides
                    </div>
                  )}
                </TableCell>
                <TableCell className="w-px whitespace-nowrap text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="edit-provider"
                    aria-label={`Edit ${provider.name}`}
                    onClick={() => setEditing({ provider })}
                  >
                    Edit
                  </Button>
                  <DeleteButton
                    testId="delete-provider"
                    ariaLabel={`Delete ${provider.name}`}
                    onClick={() => setDeleting(provider)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
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
        <p className="m-0">
          “{deleting?.name}” and its API key will be deleted. Nodes that use it will fail with “model not configured” —
          they never fall back to the demo model.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
