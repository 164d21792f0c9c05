"use client";

import { type FormEvent, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { FormField, TextField } from "@/components/ui/form-field";
import { useToastMessage } from "@/components/ui/use-toast-message";
import { useSettingsForm } from "./use-settings-form";

/** A key as the page lists it (dates as ISO strings from the server component). */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  workflowId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A workflow a key may be limited to. */
export interface ApiKeyWorkflowOption {
  id: string;
  name: string;
  slug: string;
}

function day(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** API keys for the published endpoints: create (secret shown once), list, revoke (confirmed). */
export function ApiKeysManager({ keys, workflows }: { keys: ApiKeyRow[]; workflows: ApiKeyWorkflowOption[] }) {
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const { form, set, issueAt, submit, act, message } = useSettingsForm({
    url: "/api/api-keys",
    initial: { name: "", workflowId: null as string | null },
    added: (created: { key: { name: string }; secret: string }) => `Created “${created.key.name}”.`,
  });
  const workflowName = (id: string | null) =>
    id === null ? "all published workflows" : (workflows.find((workflow) => workflow.id === id)?.name ?? id);

  const create = async (event: FormEvent) => {
    const created = await submit(event);
    if (created) setSecret({ name: created.key.name, value: created.secret });
  };

  const revoke = async (key: ApiKeyRow) => {
    setRevoking(null);
    await act(`/api/api-keys/${encodeURIComponent(key.id)}`, "DELETE", `Revoked “${key.name}”: it no longer works.`);
  };

  useToastMessage(message);
  return (
    <div data-testid="api-keys">
      <header className="page-header">
        <h1>API keys</h1>
      </header>
      <p className="muted">
        Keys call published workflows: <code>POST /api/v1/workflows/&lt;slug&gt;/run</code> with{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>. Only a hash is stored, so a key is shown once, when it is
        created.
      </p>
      {secret && (
        <div className="notice" data-testid="api-key-secret-box">
          <p>Copy the key “{secret.name}” now; it will not be shown again.</p>
          <code data-testid="api-key-secret">{secret.value}</code>{" "}
          <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(secret.value)}>
            Copy
          </button>
        </div>
      )}
      {message && (
        <p className="sr-only" data-testid="api-keys-message">
          {message}
        </p>
      )}
      {keys.length === 0 ? (
        <p className="muted" data-testid="api-keys-empty">
          No keys yet.
        </p>
      ) : (
        <table className="table" data-testid="api-key-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Calls</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-testid="api-key-row" data-name={key.name} data-revoked={key.revokedAt !== null}>
                <td>
                  <b>{key.name}</b>
                </td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{workflowName(key.workflowId)}</td>
                <td>{day(key.createdAt)}</td>
                <td>{day(key.lastUsedAt)}</td>
                <td className="row-actions">
                  {key.revokedAt ? (
                    <span className="badge">revoked</span>
                  ) : (
                    <button
                      type="button"
                      className="button-ghost danger"
                      data-testid="revoke-api-key"
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="settings-form" onSubmit={(event) => void create(event)} data-testid="api-key-form">
        <h2>Create a key</h2>
        <TextField
          id="api-key-name"
          label="Name"
          placeholder="ci, website, zapier…"
          value={form.name}
          onChange={(name) => set({ name })}
          error={issueAt("name")}
          errorTestId="api-key-error-name"
        />
        <FormField id="api-key-workflow" label="Calls" errorTestId="api-key-error-workflow">
          <select
            id="api-key-workflow"
            className="input"
            value={form.workflowId ?? ""}
            onChange={(event) => set({ workflowId: event.target.value || null })}
          >
            <option value="">All published workflows</option>
            {workflows.map((workflow) => (
              <option key={workflow.id} value={workflow.id}>
                Only “{workflow.name}” ({workflow.slug})
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className="button button-primary" data-testid="create-api-key">
          Create key
        </button>
      </form>
      <ConfirmDeleteDialog
        open={revoking !== null}
        title="Revoke key?"
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
        testId="revoke-api-key-dialog"
        confirmTestId="confirm-revoke-api-key"
      >
        <p>Clients using “{revoking?.name}” get 401 from their next call. This cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
