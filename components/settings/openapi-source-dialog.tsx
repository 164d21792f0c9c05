"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import type { ToolSourceView } from "@/lib/db/tool-source-config";
import { type ApiIssue, sendJson } from "./settings-api";

type OpenApiView = Extract<ToolSourceView, { kind: "openapi" }>;
type AuthType = "none" | "apiKey" | "bearer";

/** The server's refusal, pointing at the field or the spec location it names. */
export function SaveError({
  message,
  issues,
  title = "Not saved.",
}: {
  message: string;
  issues: ApiIssue[];
  title?: string;
}) {
  const location = issues[0]?.path;
  return (
    <div className="error-box" data-testid="source-error" data-location={location ?? ""}>
      <b>{title}</b> {location ? <code>{location}</code> : null} {issues[0]?.message ?? message}
    </div>
  );
}

/**
 * Adds or edits an OpenAPI tool set: the document is pasted or loaded from a JSON/YAML file, and
 * the server validates it completely before saving (an invalid one names the location). The key
 * or token is write-only: the server only says whether one is stored.
 */
export function OpenApiSourceDialog({
  open,
  source,
  onClose,
  onSaved,
}: {
  open: boolean;
  source?: OpenApiView;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [name, setName] = useState(source?.name ?? "");
  const [spec, setSpec] = useState(source?.config.spec ?? "");
  const [serverUrl, setServerUrl] = useState(source?.config.serverUrl ?? "");
  const [authType, setAuthType] = useState<AuthType>(source?.config.auth.type ?? "none");
  const [keyIn, setKeyIn] = useState<"header" | "query">(
    source?.config.auth.type === "apiKey" ? source.config.auth.in : "header",
  );
  const [keyName, setKeyName] = useState(source?.config.auth.type === "apiKey" ? source.config.auth.name : "X-API-Key");
  const [secret, setSecret] = useState("");
  const [prefix, setPrefix] = useState(source?.config.toolNamePrefix ?? "");
  const [error, setError] = useState<{ message: string; issues: ApiIssue[] } | null>(null);
  const [saving, setSaving] = useState(false);

  const loadFile = async (file: File) => {
    setSpec(await file.text());
    if (!name) setName(file.name.replace(/\.(json|ya?ml)$/i, ""));
  };

  const save = async () => {
    setSaving(true);
    setError(null);
    const auth = authType === "apiKey" ? { type: "apiKey", in: keyIn, name: keyName } : { type: authType };
    const body = {
      kind: "openapi",
      name,
      spec,
      serverUrl: serverUrl.trim() || undefined,
      auth,
      secret: secret === "" ? undefined : secret,
      readOnlyTools: source?.config.readOnlyTools ?? [],
      toolNamePrefix: prefix.trim() || undefined,
    };
    const result = source
      ? await sendJson(`/api/tool-sources/${source.id}`, "PUT", body)
      : await sendJson("/api/tool-sources", "POST", body);
    setSaving(false);
    if (!result.ok) {
      setError({ message: result.message, issues: result.issues });
      return;
    }
    onSaved(source ? `Saved “${name}”.` : `Imported “${name}”.`);
  };

  return (
    <Dialog
      open={open}
      wide
      title={source ? `Edit ${source.name}` : "Add OpenAPI tool set"}
      onClose={onClose}
      testId="openapi-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="save-source"
            disabled={saving}
            onClick={() => void save()}
          >
            {saving ? "Checking…" : "Save"}
          </button>
        </>
      }
    >
      {error && <SaveError {...error} />}
      <div className="grid grid-cols-2 gap-x-3">
        <div className="field">
          <label className="field-label" htmlFor="openapi-name">
            Name
          </label>
          <input
            id="openapi-name"
            className="input"
            value={name}
            data-testid="source-name"
            onChange={(event) => setName(event.target.value)}
          />
          <div className="field-help">Shown as the tools' source in the picker.</div>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="openapi-prefix">
            Tool name prefix (optional)
          </label>
          <input
            id="openapi-prefix"
            className="input code-input"
            value={prefix}
            placeholder="e.g. pets_"
            onChange={(event) => setPrefix(event.target.value)}
          />
          <div className="field-help">Keeps tool names unique when two sources define the same operation.</div>
        </div>
      </div>
      <div className="field">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <label className="field-label" htmlFor="openapi-spec">
            OpenAPI 3.0 / 3.1 document (JSON or YAML)
          </label>
          <label className="button-small">
            Load file…
            <input
              type="file"
              hidden
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              data-testid="spec-file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void loadFile(file);
              }}
            />
          </label>
        </div>
        <textarea
          id="openapi-spec"
          className="input code-input min-h-44 resize-y"
          spellCheck={false}
          value={spec}
          data-testid="spec-input"
          placeholder="Paste the document here"
          onChange={(event) => setSpec(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="openapi-server">
          Server URL (optional)
        </label>
        <input
          id="openapi-server"
          className="input"
          value={serverUrl}
          placeholder="Defaults to the document's first server"
          onChange={(event) => setServerUrl(event.target.value)}
        />
        <div className="field-help">Requests pass the SSRF guard: internal addresses need TRELLIS_HTTP_ALLOWLIST.</div>
      </div>
      <div className="grid grid-cols-2 gap-x-3">
        <div className="field">
          <label className="field-label" htmlFor="openapi-auth">
            Authentication
          </label>
          <select
            id="openapi-auth"
            className="input"
            value={authType}
            data-testid="auth-type"
            onChange={(event) => setAuthType(event.target.value as AuthType)}
          >
            <option value="none">None</option>
            <option value="apiKey">API key</option>
            <option value="bearer">Bearer token</option>
          </select>
        </div>
        {authType !== "none" && (
          <div className="field">
            <label className="field-label" htmlFor="openapi-secret">
              {authType === "bearer" ? "Token" : "API key"}
            </label>
            <input
              id="openapi-secret"
              className="input"
              type="password"
              autoComplete="off"
              value={secret}
              data-testid="auth-secret"
              placeholder={source?.config.hasSecret ? "•••••• stored (leave empty to keep)" : ""}
              onChange={(event) => setSecret(event.target.value)}
            />
          </div>
        )}
        {authType === "apiKey" && (
          <>
            <div className="field">
              <label className="field-label" htmlFor="openapi-key-in">
                Sent in
              </label>
              <select
                id="openapi-key-in"
                className="input"
                value={keyIn}
                onChange={(event) => setKeyIn(event.target.value as "header" | "query")}
              >
                <option value="header">Header</option>
                <option value="query">Query parameter</option>
              </select>
            </div>
            <div className="field">
              <label className="field-label" htmlFor="openapi-key-name">
                {keyIn === "header" ? "Header name" : "Parameter name"}
              </label>
              <input
                id="openapi-key-name"
                className="input code-input"
                value={keyName}
                onChange={(event) => setKeyName(event.target.value)}
              />
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}
