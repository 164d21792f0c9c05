"use client";

import { CopyIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { TextField } from "@/components/ui/form-field";
import { formatRelativeTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page";
import { SectionCard } from "@/components/ui/section-card";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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

/** A date in a narrow cell: the day, or how long ago for recent use; the full time is the cell's title. */
function when(iso: string | null, relative = false): { text: string; title?: string } {
  if (!iso) return { text: "never" };
  return {
    text: relative ? formatRelativeTime(iso) : new Date(iso).toLocaleDateString(),
    title: new Date(iso).toLocaleString(),
  };
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
    <div data-testid="api-keys" className="flex flex-col gap-4">
      <PageHeader
        title="API keys"
        description={
          <>
            Keys call published workflows: <code>POST /api/v1/workflows/&lt;slug&gt;/run</code> with{" "}
            <code>Authorization: Bearer &lt;key&gt;</code>. Only a hash is stored, so a key is shown once, when it is
            created. A key past its requests per minute gets 429 with <code>Retry-After</code>.
          </>
        }
      />
      {secret && (
        <Alert tone="info" role="status" className="flex flex-col gap-2" data-testid="api-key-secret-box">
          <p>Copy the key “{secret.name}” now; it will not be shown again.</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded-sm bg-card px-2 py-1 text-xs break-all" data-testid="api-key-secret">
              {secret.value}
            </code>
            <Button size="sm" onClick={() => void navigator.clipboard?.writeText(secret.value)}>
              <CopyIcon /> Copy
            </Button>
          </div>
        </Alert>
      )}
      {message && (
        <p className="sr-only" data-testid="api-keys-message">
          {message}
        </p>
      )}
      {keys.length === 0 ? (
        <EmptyState data-testid="api-keys-empty">No keys yet.</EmptyState>
      ) : (
        <Table data-testid="api-key-list">
          <TableHeadRow columns={["Key", "Scopes", "Calls", "Limits", "Created", "Last used"]} actions />
          <TableBody>
            {keys.map((key) => (
              <TableRow
                key={key.id}
                data-testid="api-key-row"
                data-name={key.name}
                data-revoked={key.revokedAt !== null}
                className={key.revokedAt ? "text-muted-foreground" : undefined}
              >
                <TableCell>
                  <span className="font-medium">{key.name}</span>
                  <code className="block text-xs whitespace-nowrap text-muted-foreground">{key.prefix}…</code>
                </TableCell>
                <TableCell data-testid="api-key-scopes">{key.scopes.join(", ") || "none"}</TableCell>
                <TableCell>{workflowNames(key.workflowIds)}</TableCell>
                <TableCell className="wrap-anywhere" data-testid="api-key-limits">
                  {key.rateLimitPerMinute ?? defaultRateLimit}/min
                  {key.rateLimitPerMinute === null ? " (default)" : ""}
                  {key.allowedOrigins.length > 0 ? ` · CORS: ${key.allowedOrigins.join(", ")}` : ""}
                </TableCell>
                <TableCell className="whitespace-nowrap" title={when(key.createdAt).title}>
                  {when(key.createdAt).text}
                </TableCell>
                <TableCell
                  className="whitespace-nowrap"
                  title={when(key.lastUsedAt).title}
                  data-testid="api-key-last-used"
                >
                  {when(key.lastUsedAt, true).text}
                </TableCell>
                <TableCell className="whitespace-nowrap text-right">
                  {key.revokedAt ? (
                    <Badge>revoked</Badge>
                  ) : (
                    <>
                      <Button
                        variant="ghost"
                        size="sm"
                        data-testid="edit-api-key"
                        aria-label={`Edit the scopes and limits of ${key.name}`}
                        onClick={() => setEditing({ key, form: settingsOf(key), issues: [] })}
                      >
                        Edit
                      </Button>
                      <DeleteButton
                        testId="revoke-api-key"
                        label="Revoke"
                        ariaLabel={`Revoke ${key.name}`}
                        onClick={() => setRevoking(key)}
                      />
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <SectionCard title="Create a key">
        <form className="flex max-w-lg flex-col" onSubmit={(event) => void create(event)} data-testid="api-key-form">
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
          <Button type="submit" variant="primary" className="self-start" data-testid="create-api-key">
            Create key
          </Button>
        </form>
      </SectionCard>
      <Dialog
        open={editing !== null}
        title={`Edit “${editing?.key.name ?? ""}”`}
        onClose={() => setEditing(null)}
        testId="edit-api-key-dialog"
        footer={
          <>
            <Button onClick={() => setEditing(null)}>Cancel</Button>
            <Button variant="primary" data-testid="save-api-key" onClick={() => void saveEdit()}>
              Save
            </Button>
          </>
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
              <p className="m-0 text-xs text-destructive" role="alert">
                {editing.issues.find((issue) => issue.path === "")?.message}
              </p>
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
        confirmLabel="Revoke"
      >
        <p className="m-0">Clients using “{revoking?.name}” get 401 from their next call. This cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
