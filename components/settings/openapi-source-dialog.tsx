"use client";

import { UploadIcon } from "lucide-react";
import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormError, DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldHint } from "@/components/ui/field-hint";
import { FileButton } from "@/components/ui/file-button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import type { ToolSourceView } from "@/lib/contracts/tool-source-config";
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
    <DialogFormError title={title} data-testid="source-error" data-location={location ?? ""}>
      {location ? <code className="break-all">{location}</code> : null} {issues[0]?.message ?? message}
    </DialogFormError>
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
        <DialogFormFooter
          onCancel={onClose}
          submit={{
            label: "Save",
            pendingLabel: "Checking…",
            pending: saving,
            testId: "save-source",
            onClick: () => void save(),
          }}
        />
      }
    >
      {error && (
        <div className="mb-3">
          <SaveError {...error} />
        </div>
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField id="openapi-name" label="Name" errorTestId="openapi-error-name">
          <Input
            id="openapi-name"
            value={name}
            data-testid="source-name"
            aria-describedby="openapi-name-hint"
            onChange={(event) => setName(event.target.value)}
          />
          <FieldHint id="openapi-name-hint">Shown as the tools' source in the picker.</FieldHint>
        </FormField>
        <FormField id="openapi-prefix" label="Tool name prefix (optional)" errorTestId="openapi-error-prefix">
          <Input
            id="openapi-prefix"
            className="font-mono text-xs"
            value={prefix}
            placeholder="e.g. pets_"
            aria-describedby="openapi-prefix-hint"
            onChange={(event) => setPrefix(event.target.value)}
          />
          <FieldHint id="openapi-prefix-hint">
            Keeps tool names unique when two sources define the same operation.
          </FieldHint>
        </FormField>
      </div>
      <div className="mb-3 flex flex-col gap-1.5">
        <div className="flex items-end justify-between gap-2">
          <Label htmlFor="openapi-spec">OpenAPI 3.0 / 3.1 document (JSON or YAML)</Label>
          <FileButton
            size="sm"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            testId="spec-file"
            onFile={(file) => void loadFile(file)}
          >
            <UploadIcon /> Load file…
          </FileButton>
        </div>
        <Textarea
          id="openapi-spec"
          className="min-h-44 resize-y font-mono text-xs"
          spellCheck={false}
          value={spec}
          data-testid="spec-input"
          placeholder="Paste the document here"
          onChange={(event) => setSpec(event.target.value)}
        />
      </div>
      <FormField id="openapi-server" label="Server URL (optional)" errorTestId="openapi-error-server">
        <Input
          id="openapi-server"
          value={serverUrl}
          placeholder="Defaults to the document's first server"
          aria-describedby="openapi-server-hint"
          onChange={(event) => setServerUrl(event.target.value)}
        />
        <FieldHint id="openapi-server-hint">
          Requests pass the SSRF guard: internal addresses need TRELLIS_HTTP_ALLOWLIST.
        </FieldHint>
      </FormField>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField id="openapi-auth" label="Authentication" errorTestId="openapi-error-auth">
          <NativeSelect
            id="openapi-auth"
            value={authType}
            data-testid="auth-type"
            onChange={(event) => setAuthType(event.target.value as AuthType)}
          >
            <option value="none">None</option>
            <option value="apiKey">API key</option>
            <option value="bearer">Bearer token</option>
          </NativeSelect>
        </FormField>
        {authType !== "none" && (
          <FormField
            id="openapi-secret"
            label={authType === "bearer" ? "Token" : "API key"}
            errorTestId="openapi-error-secret"
          >
            <Input
              id="openapi-secret"
              type="password"
              autoComplete="off"
              value={secret}
              data-testid="auth-secret"
              placeholder={source?.config.hasSecret ? "•••••• stored (leave empty to keep)" : ""}
              onChange={(event) => setSecret(event.target.value)}
            />
          </FormField>
        )}
        {authType === "apiKey" && (
          <>
            <FormField id="openapi-key-in" label="Sent in" errorTestId="openapi-error-key-in">
              <NativeSelect
                id="openapi-key-in"
                value={keyIn}
                onChange={(event) => setKeyIn(event.target.value as "header" | "query")}
              >
                <option value="header">Header</option>
                <option value="query">Query parameter</option>
              </NativeSelect>
            </FormField>
            <FormField
              id="openapi-key-name"
              label={keyIn === "header" ? "Header name" : "Parameter name"}
              errorTestId="openapi-error-key-name"
            >
              <Input
                id="openapi-key-name"
                className="font-mono text-xs"
                value={keyName}
                onChange={(event) => setKeyName(event.target.value)}
              />
            </FormField>
          </>
        )}
      </div>
    </Dialog>
  );
}
