"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormError, DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldHint } from "@/components/ui/field-hint";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ProviderView } from "@/lib/contracts/provider-config";
import { SaveError } from "./openapi-source-dialog";
import { ProfileOverridesEditor, type ProfileRowDraft, toProfiles } from "./profile-overrides-editor";
import { SecretEntriesEditor, type SecretEntryDraft, toSecretEntries } from "./secret-entries-editor";
import { type ApiIssue, sendJson } from "./settings-api";

type CheckOutcome =
  | { ok: true; method: "models"; models: string[] }
  | { ok: true; method: "completion"; model: string; reply: string }
  | { ok: false; error: { code: string; message: string; hint?: string } };

/**
 * Adds or edits a named OpenAI-compatible provider. The API key and header values are
 * write-only; "Test" tries the settings as typed (stored secrets fill empty fields).
 */
export function ProviderDialog({
  provider,
  onClose,
  onSaved,
}: {
  provider?: ProviderView;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [name, setName] = useState(provider?.name ?? "");
  const [baseURL, setBaseURL] = useState(provider?.baseURL ?? "");
  const [apiKey, setApiKey] = useState("");
  const [headers, setHeaders] = useState<SecretEntryDraft[]>(
    provider?.headers.map((header) => ({ name: header.name, value: "", stored: header.hasValue })) ?? [],
  );
  const [query, setQuery] = useState(
    Object.entries(provider?.query ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join("\n"),
  );
  const [models, setModels] = useState((provider?.models ?? []).join("\n"));
  const [profiles, setProfiles] = useState<ProfileRowDraft[]>(
    Object.entries(provider?.profiles ?? {}).map(([model, override]) => ({ model, override })),
  );
  const [firstByteSeconds, setFirstByteSeconds] = useState(secondsField(provider?.attemptTimeouts.firstByteMs));
  const [attemptSeconds, setAttemptSeconds] = useState(secondsField(provider?.attemptTimeouts.totalMs));
  const [error, setError] = useState<{ message: string; issues: ApiIssue[]; title?: string } | null>(null);
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);

  const modelList = () =>
    models
      .split(/[\n,]/)
      .map((model) => model.trim())
      .filter(Boolean);

  const body = () => ({
    name: name.trim(),
    baseURL: baseURL.trim(),
    apiKey: apiKey === "" ? undefined : apiKey,
    headers: toSecretEntries(headers),
    query: Object.fromEntries(
      query
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")).trim(), line.slice(line.indexOf("=") + 1).trim()]),
    ),
    models: modelList(),
    profiles: toProfiles(profiles),
    attemptTimeouts: {
      firstByteMs: millisecondsOf(firstByteSeconds),
      totalMs: millisecondsOf(attemptSeconds),
    },
  });

  const check = async () => {
    setError(null);
    setOutcome(null);
    if (!name.trim()) {
      setError({ message: "Enter a name first.", issues: [{ path: "name", message: "Enter a name first." }] });
      return;
    }
    setChecking(true);
    const { name: _name, ...settings } = body();
    const result = await sendJson<CheckOutcome>(
      `/api/providers/${encodeURIComponent(name.trim())}/test`,
      "POST",
      settings,
    );
    setChecking(false);
    if (result.ok) setOutcome(result.data);
    else setError({ message: result.message, issues: result.issues, title: "Not tested." });
  };

  const save = async () => {
    setError(null);
    const result = provider
      ? await sendJson(`/api/providers/${encodeURIComponent(provider.name)}`, "PUT", body())
      : await sendJson("/api/providers", "POST", body());
    if (!result.ok) {
      setError({ message: result.message, issues: result.issues });
      return;
    }
    onSaved(provider ? `Saved “${name}”.` : `Added “${name.trim()}”.`);
  };

  return (
    <Dialog
      open
      wide
      title={provider ? `Edit ${provider.name}` : "Add model provider"}
      onClose={onClose}
      testId="provider-dialog"
      footer={
        <DialogFormFooter
          check={{
            label: "Test",
            pendingLabel: "Testing…",
            pending: checking,
            testId: "test-provider",
            leading: true,
            onClick: () => void check(),
          }}
          onCancel={onClose}
          submit={{ label: "Save", testId: "save-provider", onClick: () => void save() }}
        />
      }
    >
      <div className="flex flex-col gap-3">
        {error && <SaveError {...error} />}
        {outcome?.ok === false && (
          <DialogFormError title="Test failed" data-testid="provider-test-error">
            ({outcome.error.code}): {outcome.error.message}
            {outcome.error.hint && <p className="mt-1">{outcome.error.hint}</p>}
          </DialogFormError>
        )}
        {outcome?.ok && (
          <Alert
            tone="success"
            role="status"
            className="flex flex-wrap items-center gap-x-2 gap-y-1"
            data-testid="provider-test-ok"
          >
            {outcome.method === "models" ? (
              <>
                Connected: {outcome.models.length} models available.
                {outcome.models.length > 0 && (
                  <Button size="sm" onClick={() => setModels(outcome.models.join("\n"))}>
                    Use this list
                  </Button>
                )}
              </>
            ) : (
              <>Connected: a 1-token call to “{outcome.model}” answered.</>
            )}
          </Alert>
        )}
        <div>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <FormField id="provider-name" label="Name" errorTestId="provider-error-name">
              <Input
                id="provider-name"
                value={name}
                disabled={provider !== undefined}
                data-testid="provider-name"
                placeholder="e.g. ollama"
                aria-describedby="provider-name-hint"
                onChange={(event) => setName(event.target.value)}
              />
              <FieldHint id="provider-name-hint">
                Nodes reference the provider by this name, so it cannot change later.
              </FieldHint>
            </FormField>
            <FormField id="provider-url" label="Base URL" errorTestId="provider-error-base-url">
              <Input
                id="provider-url"
                value={baseURL}
                data-testid="provider-base-url"
                placeholder="https://api.openai.com/v1"
                onChange={(event) => setBaseURL(event.target.value)}
              />
            </FormField>
            <FormField id="provider-key" label="API key" errorTestId="provider-error-api-key">
              <Input
                id="provider-key"
                type="password"
                autoComplete="off"
                value={apiKey}
                data-testid="provider-api-key"
                placeholder={provider?.hasApiKey ? "•••••• stored (leave empty to keep)" : "none (local servers)"}
                aria-describedby="provider-key-hint"
                onChange={(event) => setApiKey(event.target.value)}
              />
              <FieldHint id="provider-key-hint">Stored encrypted and never shown again.</FieldHint>
            </FormField>
            <FormField id="provider-models" label="Models (one per line)" errorTestId="provider-error-models">
              <Textarea
                id="provider-models"
                className="min-h-0 font-mono text-xs"
                rows={3}
                value={models}
                data-testid="provider-models"
                placeholder="gpt-4o-mini"
                onChange={(event) => setModels(event.target.value)}
              />
            </FormField>
          </div>
          <FormField
            id="provider-query"
            label="Extra query parameters (name=value, one per line)"
            errorTestId="provider-error-query"
          >
            <Textarea
              id="provider-query"
              className="min-h-0 font-mono text-xs"
              rows={2}
              value={query}
              placeholder="api-version=2024-10-21"
              aria-describedby="provider-query-hint"
              onChange={(event) => setQuery(event.target.value)}
            />
            <FieldHint id="provider-query-hint">Azure OpenAI needs api-version; these are not secret.</FieldHint>
          </FormField>
          <SecretEntriesEditor
            label="Extra headers"
            entries={headers}
            onChange={setHeaders}
            namePlaceholder="api-key"
            testId="provider-headers"
          />
          <div className="mb-3 grid gap-x-4 sm:grid-cols-2">
            <SecondsField
              name="first-byte-timeout"
              label="First byte timeout (s)"
              value={firstByteSeconds}
              placeholder="60"
              onChange={setFirstByteSeconds}
            />
            <SecondsField
              name="attempt-timeout"
              label="Attempt timeout (s)"
              value={attemptSeconds}
              placeholder="300"
              onChange={setAttemptSeconds}
            />
            <FieldHint id="provider-timeouts-hint" className="sm:col-span-2">
              A call that gets no first byte, or no whole answer, in time ends with model_timeout and is not retried.
              Empty keeps the defaults; a node&apos;s own model timeouts win.
            </FieldHint>
          </div>
          <ProfileOverridesEditor rows={profiles} onChange={setProfiles} />
        </div>
      </div>
    </Dialog>
  );
}

/**
 * One timeout in seconds (1 to 3600; empty keeps the default). `name` gives the field's id and
 * testid (`provider-<name>`) and its error testid (`provider-error-<name>`); both timeouts share
 * the hint below them.
 */
function SecondsField({
  name,
  label,
  value,
  placeholder,
  onChange,
}: {
  name: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  const id = `provider-${name}`;
  return (
    <FormField id={id} label={label} errorTestId={`provider-error-${name}`}>
      <Input
        id={id}
        type="number"
        min={1}
        max={3600}
        value={value}
        data-testid={id}
        placeholder={placeholder}
        aria-describedby="provider-timeouts-hint"
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  );
}

/** A stored bound in ms as the seconds the form shows ("" when unset). */
function secondsField(milliseconds: number | undefined): string {
  return milliseconds === undefined ? "" : String(milliseconds / 1000);
}

/** The form's seconds as ms; empty stays unset, and anything else goes to the server's check as is. */
function millisecondsOf(seconds: string): number | undefined {
  if (seconds.trim() === "") return undefined;
  return Math.round(Number(seconds) * 1000);
}
