"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
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
        <>
          <button
            type="button"
            className="button"
            data-testid="test-provider"
            disabled={checking}
            onClick={() => void check()}
          >
            {checking ? "Testing…" : "Test"}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="save-provider"
            onClick={() => void save()}
          >
            Save
          </button>
        </>
      }
    >
      {error && <SaveError {...error} />}
      {outcome?.ok === false && (
        <div className="error-box" data-testid="provider-test-error">
          <b>Test failed</b> ({outcome.error.code}): {outcome.error.message}
          {outcome.error.hint && <div>{outcome.error.hint}</div>}
        </div>
      )}
      {outcome?.ok && (
        <div
          className="my-2 rounded-md border border-success/35 bg-success/10 px-2.5 py-1.5 text-sm text-foreground"
          data-testid="provider-test-ok"
        >
          {outcome.method === "models" ? (
            <>
              Connected: {outcome.models.length} models available.{" "}
              {outcome.models.length > 0 && (
                <button type="button" className="button-small" onClick={() => setModels(outcome.models.join("\n"))}>
                  Use this list
                </button>
              )}
            </>
          ) : (
            <>Connected: a 1-token call to “{outcome.model}” answered.</>
          )}
        </div>
      )}
      <div className="grid grid-cols-2 gap-x-3">
        <div className="field">
          <label className="field-label" htmlFor="provider-name">
            Name
          </label>
          <input
            id="provider-name"
            className="input"
            value={name}
            disabled={provider !== undefined}
            data-testid="provider-name"
            placeholder="e.g. ollama"
            onChange={(event) => setName(event.target.value)}
          />
          <div className="field-help">Nodes reference the provider by this name, so it cannot change later.</div>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="provider-url">
            Base URL
          </label>
          <input
            id="provider-url"
            className="input"
            value={baseURL}
            data-testid="provider-base-url"
            placeholder="https://api.openai.com/v1"
            onChange={(event) => setBaseURL(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="provider-key">
            API key
          </label>
          <input
            id="provider-key"
            className="input"
            type="password"
            autoComplete="off"
            value={apiKey}
            data-testid="provider-api-key"
            placeholder={provider?.hasApiKey ? "•••••• stored (leave empty to keep)" : "none (local servers)"}
            onChange={(event) => setApiKey(event.target.value)}
          />
          <div className="field-help">Stored encrypted and never shown again.</div>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="provider-models">
            Models (one per line)
          </label>
          <textarea
            id="provider-models"
            className="input code-input"
            rows={3}
            value={models}
            data-testid="provider-models"
            placeholder="gpt-4o-mini"
            onChange={(event) => setModels(event.target.value)}
          />
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="provider-query">
          Extra query parameters (name=value, one per line)
        </label>
        <textarea
          id="provider-query"
          className="input code-input"
          rows={2}
          value={query}
          placeholder="api-version=2024-10-21"
          onChange={(event) => setQuery(event.target.value)}
        />
        <div className="field-help">Azure OpenAI needs api-version; these are not secret.</div>
      </div>
      <SecretEntriesEditor
        label="Extra headers"
        entries={headers}
        onChange={setHeaders}
        namePlaceholder="api-key"
        testId="provider-headers"
      />
      <div className="grid grid-cols-2 gap-x-3">
        <div className="field">
          <label className="field-label" htmlFor="provider-first-byte-timeout">
            First byte timeout (s)
          </label>
          <input
            id="provider-first-byte-timeout"
            className="input"
            type="number"
            min={1}
            max={3600}
            value={firstByteSeconds}
            data-testid="provider-first-byte-timeout"
            placeholder="60"
            onChange={(event) => setFirstByteSeconds(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="provider-attempt-timeout">
            Attempt timeout (s)
          </label>
          <input
            id="provider-attempt-timeout"
            className="input"
            type="number"
            min={1}
            max={3600}
            value={attemptSeconds}
            data-testid="provider-attempt-timeout"
            placeholder="300"
            onChange={(event) => setAttemptSeconds(event.target.value)}
          />
        </div>
        <div className="field-help col-span-2">
          A call that gets no first byte, or no whole answer, in time ends with model_timeout and is not retried. Empty
          keeps the defaults; a node&apos;s own model timeouts win.
        </div>
      </div>
      <ProfileOverridesEditor rows={profiles} onChange={setProfiles} />
    </Dialog>
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
