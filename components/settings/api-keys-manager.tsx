"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/form-field";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { ApiKeyScope } from "@/lib/contracts/api-keys";
import {
  ApiKeySettingsFields,
  type ApiKeySettingsForm,
  type ApiKeyWorkflowOption,
  issueUnder,
  settingsBody,
} from "./api-key-settings-fields";
import { type ApiIssue, sendJson } from "./settings-api";

export type { ApiKeyWorkflowOption } from "./api-key-settings-fields";

/** A key as the page lists it (dates as ISO strings from the server component). */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** Null: every workflow. */
  workflowIds: string[] | null;
  allowedOrigins: string[];
  /** Null: the server default. */
  rateLimitPerMinute: number | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function day(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

const EMPTY_SETTINGS: ApiKeySettingsForm = { scopes: ["run"], workflowIds: [], originsText: "", rateLimitText: "" };

function settingsOf(key: ApiKeyRow): ApiKeySettingsForm {
  return {
    scopes: key.scopes,
    workflowIds: key.workflowIds ?? [],
    originsText: key.allowedOrigins.join("\n"),
    rateLimitText: key.rateLimitPerMinute === null ? "" : String(key.rateLimitPerMinute),
  };
}

/**
 * API keys for the published endpoints: create (secret shown once) with scopes and optional limits
 * (workflows, CORS origins, requests per minute), list with last use, edit the limits, revoke.
 */
export function ApiKeysManager({
  keys,
  workflows,
  defaultRateLimit,
}: {
  keys: ApiKeyRow[];
  workflows: ApiKeyWorkflowOption[];
  defaultRateLimit: number;
}) {
  const router = useRouter();
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const [name, setName] = useState("");
  const [settings, setSettings] = useState<ApiKeySettingsForm>(EMPTY_SETTINGS);
  const [issues, setIssues] = useState<ApiIssue[]>([]);
  const [editing, setEditing] = useState<{ key: ApiKeyRow; form: ApiKeySettingsForm; issues: ApiIssue[] } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const workflowNames = (ids: string[] | null) =>
    ids === null
      ? "all workflows"
      : ids.map((id) => workflows.find((workflow) => workflow.id === id)?.name ?? id).join(", ");

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const result = await sendJson<{ key: { name: string }; secret: string }>("/api/api-keys", "POST", {
      name,
      ...settingsBody(settings),
    });
    if (!result.ok) {
      setIssues(result.issues);
      setMessage(result.issues.length > 0 ? null : result.message);
      return;
    }
    setIssues([]);
    setName("");
    setSettings(EMPTY_SETTINGS);
    setSecret({ name: result.data.key.name, value: result.data.secret });
    setMessage(`Created “${result.data.key.name}”.`);
    router.refresh();
  };

  const saveEdit = async () => {
    if (!editing) return;
    const result = await sendJson(
      `/api/api-keys/${encodeURIComponent(editing.key.id)}`,
      "PATCH",
      settingsBody(editing.form),
    );
    if (!result.ok) {
      setEditing({
        ...editing,
        issues: result.issues.length ? result.issues : [{ path: "", message: result.message }],
      });
      return;
    }
    setEditing(null);
    setMessage(`Saved “${editing.key.name}”.`);
    router.refresh();
  };

  const revoke = async (key: ApiKeyRow) => {
    setRevoking(null);
    const result = await sendJson(`/api/api-keys/${encodeURIComponent(key.id)}`, "DELETE");
    setMessage(result.ok ? `Revoked “${key.name}”: it no longer works.` : result.message);
    router.refresh();
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
        created. A key past its requests per minute gets 429 with <code>Retry-After</code>.
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
              <th>Scopes</th>
              <th>Calls</th>
              <th>Limits</th>
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
                <td data-testid="api-key-scopes">{key.scopes.join(", ") || "none"}</td>
                <td>{workflowNames(key.workflowIds)}</td>
                <td data-testid="api-key-limits">
                  {key.rateLimitPerMinute ?? defaultRateLimit}/min
                  {key.rateLimitPerMinute === null ? " (default)" : ""}
                  {key.allowedOrigins.length > 0 ? ` · CORS: ${key.allowedOrigins.join(", ")}` : ""}
                </td>
                <td>{day(key.createdAt)}</td>
                <td data-testid="api-key-last-used">{day(key.lastUsedAt)}</td>
                <td className="row-actions">
                  {key.revokedAt ? (
                    <span className="badge">revoked</span>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="button-ghost"
                        data-testid="edit-api-key"
                        aria-label={`Edit the scopes and limits of ${key.name}`}
                        onClick={() => setEditing({ key, form: settingsOf(key), issues: [] })}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button-ghost danger"
                        data-testid="revoke-api-key"
                        onClick={() => setRevoking(key)}
                      >
                        Revoke
                      </button>
                    </>
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
          value={name}
          onChange={setName}
          error={issueUnder(issues, "name")}
          errorTestId="api-key-error-name"
        />
        <ApiKeySettingsFields
          idPrefix="api-key"
          form={settings}
          onChange={(patch) => setSettings((current) => ({ ...current, ...patch }))}
          workflows={workflows}
          defaultRateLimit={defaultRateLimit}
          issueAt={(field) => issueUnder(issues, field)}
        />
        <button type="submit" className="button button-primary" data-testid="create-api-key">
          Create key
        </button>
      </form>
      <Dialog
        open={editing !== null}
        title={`Edit “${editing?.key.name ?? ""}”`}
        onClose={() => setEditing(null)}
        testId="edit-api-key-dialog"
        footer={
          <button
            type="button"
            className="button button-primary"
            data-testid="save-api-key"
            onClick={() => void saveEdit()}
          >
            Save
          </button>
        }
      >
        {editing && (
          <>
            <ApiKeySettingsFields
              idPrefix="edit-api-key"
              form={editing.form}
              onChange={(patch) => setEditing({ ...editing, form: { ...editing.form, ...patch } })}
              workflows={workflows}
              defaultRateLimit={defaultRateLimit}
              issueAt={(field) => issueUnder(editing.issues, field)}
            />
            {editing.issues.some((issue) => issue.path === "") && (
              <p className="field-error">{editing.issues.find((issue) => issue.path === "")?.message}</p>
            )}
          </>
        )}
      </Dialog>
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
