"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormError, DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldHint } from "@/components/ui/field-hint";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import type { McpToolSnapshot, ToolSourceView } from "@/lib/contracts/tool-source-config";
import { SaveError } from "./openapi-source-dialog";
import { SecretEntriesEditor, type SecretEntryDraft, toSecretEntries } from "./secret-entries-editor";
import { type ApiIssue, sendJson } from "./settings-api";

type McpView = Extract<ToolSourceView, { kind: "mcp" }>;
type TestOutcome = { ok: true; tools: McpToolSnapshot[] } | { ok: false; error: { code: string; message: string } };

function initialEntries(source: McpView | undefined, transport: "stdio" | "http"): SecretEntryDraft[] {
  const connection = source?.config.connection;
  if (!connection || connection.transport !== transport) return [];
  const list = connection.transport === "stdio" ? connection.env : connection.headers;
  return list.map((entry) => ({ name: entry.name, value: "", stored: entry.hasValue }));
}

/**
 * Adds or edits an MCP server (a local command over stdio, or an HTTP URL: Streamable HTTP, or HTTP+SSE). Env and
 * header values are write-only. "Test connection" connects, lists the tools and disconnects,
 * always answering within about 20 seconds.
 */
export function McpSourceDialog({
  open,
  source,
  stdioAllowed,
  onClose,
  onSaved,
}: {
  open: boolean;
  source?: McpView;
  stdioAllowed: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const connection = source?.config.connection;
  const [name, setName] = useState(source?.name ?? "");
  const [transport, setTransport] = useState<"stdio" | "http">(
    connection?.transport ?? (stdioAllowed ? "stdio" : "http"),
  );
  const [command, setCommand] = useState(connection?.transport === "stdio" ? connection.command : "");
  const [args, setArgs] = useState(connection?.transport === "stdio" ? connection.args.join("\n") : "");
  const [url, setUrl] = useState(connection?.transport === "http" ? connection.url : "");
  const [env, setEnv] = useState(() => initialEntries(source, "stdio"));
  const [headers, setHeaders] = useState(() => initialEntries(source, "http"));
  const [prefix, setPrefix] = useState(source?.config.toolNamePrefix ?? "");
  const [error, setError] = useState<{ message: string; issues: ApiIssue[]; title?: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);

  const connectionBody = () =>
    transport === "stdio"
      ? {
          transport,
          command,
          args: args
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean),
          env: toSecretEntries(env),
        }
      : { transport, url, headers: toSecretEntries(headers) };

  const test = async () => {
    setTesting(true);
    setOutcome(null);
    setError(null);
    const result = await sendJson<TestOutcome>("/api/tool-sources/test", "POST", {
      name,
      connection: connectionBody(),
      toolNamePrefix: prefix.trim() || undefined,
      id: source?.id,
    });
    setTesting(false);
    if (result.ok) setOutcome(result.data);
    else setError({ message: result.message, issues: result.issues, title: "Not tested." });
  };

  const save = async () => {
    setError(null);
    const body = {
      kind: "mcp",
      name,
      connection: connectionBody(),
      readOnlyTools: source?.config.readOnlyTools ?? [],
      toolNamePrefix: prefix.trim() || undefined,
    };
    const result = source
      ? await sendJson(`/api/tool-sources/${source.id}`, "PUT", body)
      : await sendJson("/api/tool-sources", "POST", body);
    if (!result.ok) {
      setError({ message: result.message, issues: result.issues });
      return;
    }
    onSaved(source ? `Saved “${name}”.` : `Added “${name}”.`);
  };

  return (
    <Dialog
      open={open}
      wide
      title={source ? `Edit ${source.name}` : "Add MCP server"}
      onClose={onClose}
      testId="mcp-dialog"
      footer={
        <DialogFormFooter
          check={{
            label: "Test connection",
            pendingLabel: "Connecting…",
            pending: testing,
            testId: "test-connection",
            leading: true,
            onClick: () => void test(),
          }}
          onCancel={onClose}
          submit={{ label: "Save", testId: "save-source", onClick: () => void save() }}
        />
      }
    >
      {(error || outcome) && (
        <div className="mb-3 flex flex-col gap-2">
          {error && <SaveError {...error} />}
          {outcome?.ok === false && (
            <DialogFormError title="Connection failed" data-testid="connection-error">
              ({outcome.error.code}): {outcome.error.message}
            </DialogFormError>
          )}
          {outcome?.ok && (
            <Alert tone="success" role="status" data-testid="connection-ok">
              Connected: {outcome.tools.length} tools — {outcome.tools.map((tool) => tool.name).join(", ")}
            </Alert>
          )}
        </div>
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField id="mcp-name" label="Name" errorTestId="mcp-error-name">
          <Input
            id="mcp-name"
            value={name}
            data-testid="source-name"
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField id="mcp-prefix" label="Tool name prefix (optional)" errorTestId="mcp-error-prefix">
          <Input
            id="mcp-prefix"
            className="font-mono text-xs"
            value={prefix}
            placeholder="e.g. github_"
            onChange={(event) => setPrefix(event.target.value)}
          />
        </FormField>
      </div>
      <FormField id="mcp-transport" label="Transport" errorTestId="mcp-error-transport">
        <NativeSelect
          id="mcp-transport"
          value={transport}
          data-testid="mcp-transport"
          onChange={(event) => setTransport(event.target.value as "stdio" | "http")}
        >
          <option value="stdio" disabled={!stdioAllowed}>
            Local command (stdio){stdioAllowed ? "" : " — disabled on this server"}
          </option>
          <option value="http">HTTP (Streamable HTTP, or the older HTTP+SSE)</option>
        </NativeSelect>
      </FormField>
      {transport === "stdio" ? (
        <>
          <FormField id="mcp-command" label="Command" errorTestId="mcp-error-command">
            <Input
              id="mcp-command"
              className="font-mono text-xs"
              value={command}
              data-testid="mcp-command"
              placeholder="npx"
              aria-describedby="mcp-command-hint"
              onChange={(event) => setCommand(event.target.value)}
            />
            <FieldHint id="mcp-command-hint">
              Runs on the Trellis server with only the variables below plus a minimal PATH/HOME.
            </FieldHint>
          </FormField>
          <FormField id="mcp-args" label="Arguments (one per line)" errorTestId="mcp-error-args">
            <Textarea
              id="mcp-args"
              className="min-h-0 font-mono text-xs"
              rows={3}
              value={args}
              data-testid="mcp-args"
              onChange={(event) => setArgs(event.target.value)}
            />
          </FormField>
          <SecretEntriesEditor
            label="Environment variables"
            entries={env}
            onChange={setEnv}
            namePlaceholder="NAME"
            testId="mcp-env"
          />
        </>
      ) : (
        <>
          <FormField id="mcp-url" label="URL" errorTestId="mcp-error-url">
            <Input
              id="mcp-url"
              value={url}
              data-testid="mcp-url"
              placeholder="https://mcp.example.com/mcp"
              onChange={(event) => setUrl(event.target.value)}
            />
          </FormField>
          <SecretEntriesEditor
            label="Headers"
            entries={headers}
            onChange={setHeaders}
            namePlaceholder="Authorization"
            testId="mcp-headers"
          />
        </>
      )}
      <FieldHint>
        Tools count as having side effects until you mark them read-only in the list; the server's own hints are shown
        but never trusted.
      </FieldHint>
    </Dialog>
  );
}
