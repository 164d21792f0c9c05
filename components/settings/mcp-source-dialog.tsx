"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import type { McpToolSnapshot, ToolSourceView } from "@/lib/db/tool-source-config";
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
 * Adds or edits an MCP server (a local command over stdio, or a Streamable HTTP URL). Env and
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
        <>
          <button
            type="button"
            className="button"
            data-testid="test-connection"
            disabled={testing}
            onClick={() => void test()}
          >
            {testing ? "Connecting…" : "Test connection"}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-primary" data-testid="save-source" onClick={() => void save()}>
            Save
          </button>
        </>
      }
    >
      {error && <SaveError {...error} />}
      {outcome?.ok === false && (
        <div className="error-box" data-testid="connection-error">
          <b>Connection failed</b> ({outcome.error.code}): {outcome.error.message}
        </div>
      )}
      {outcome?.ok && (
        <div
          className="my-2 rounded-md border border-success/35 bg-success/10 px-2.5 py-1.5 text-sm text-foreground"
          data-testid="connection-ok"
        >
          Connected: {outcome.tools.length} tools — {outcome.tools.map((tool) => tool.name).join(", ")}
        </div>
      )}
      <div className="grid grid-cols-2 gap-x-3">
        <div className="field">
          <label className="field-label" htmlFor="mcp-name">
            Name
          </label>
          <input
            id="mcp-name"
            className="input"
            value={name}
            data-testid="source-name"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="mcp-prefix">
            Tool name prefix (optional)
          </label>
          <input
            id="mcp-prefix"
            className="input code-input"
            value={prefix}
            placeholder="e.g. github_"
            onChange={(event) => setPrefix(event.target.value)}
          />
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="mcp-transport">
          Transport
        </label>
        <select
          id="mcp-transport"
          className="input"
          value={transport}
          data-testid="mcp-transport"
          onChange={(event) => setTransport(event.target.value as "stdio" | "http")}
        >
          <option value="stdio" disabled={!stdioAllowed}>
            Local command (stdio){stdioAllowed ? "" : " — disabled on this server"}
          </option>
          <option value="http">Streamable HTTP</option>
        </select>
      </div>
      {transport === "stdio" ? (
        <>
          <div className="field">
            <label className="field-label" htmlFor="mcp-command">
              Command
            </label>
            <input
              id="mcp-command"
              className="input code-input"
              value={command}
              data-testid="mcp-command"
              placeholder="npx"
              onChange={(event) => setCommand(event.target.value)}
            />
            <div className="field-help">
              Runs on the Trellis server with only the variables below plus a minimal PATH/HOME.
            </div>
          </div>
          <div className="field">
            <label className="field-label" htmlFor="mcp-args">
              Arguments (one per line)
            </label>
            <textarea
              id="mcp-args"
              className="input code-input"
              rows={3}
              value={args}
              data-testid="mcp-args"
              onChange={(event) => setArgs(event.target.value)}
            />
          </div>
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
          <div className="field">
            <label className="field-label" htmlFor="mcp-url">
              URL
            </label>
            <input
              id="mcp-url"
              className="input"
              value={url}
              data-testid="mcp-url"
              placeholder="https://mcp.example.com/mcp"
              onChange={(event) => setUrl(event.target.value)}
            />
          </div>
          <SecretEntriesEditor
            label="Headers"
            entries={headers}
            onChange={setHeaders}
            namePlaceholder="Authorization"
            testId="mcp-headers"
          />
        </>
      )}
      <p className="field-help">
        Tools count as having side effects until you mark them read-only in the list; the server's own hints are shown
        but never trusted.
      </p>
    </Dialog>
  );
}
