"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { ToolSourceView } from "@/lib/db/tool-source-config";
import type { ToolSourceReport } from "@/lib/services/tool-source-service";
import { McpSourceDialog } from "./mcp-source-dialog";
import { OpenApiSourceDialog } from "./openapi-source-dialog";
import { sendJson } from "./settings-api";

type Editing = { kind: "openapi" | "mcp"; source?: ToolSourceView } | null;

function connectionSummary(source: ToolSourceView): string {
  if (source.kind === "openapi") {
    const auth = source.config.auth.type === "none" ? "no auth" : `${source.config.auth.type} auth`;
    return `${source.config.serverUrl ?? "server from the document"} · ${auth}`;
  }
  const connection = source.config.connection;
  return connection.transport === "stdio"
    ? `stdio: ${[connection.command, ...connection.args].join(" ")}`
    : `HTTP: ${connection.url}`;
}

/** MCP hints and OpenAPI method/path, shown for information only. */
function Annotations({ annotations }: { annotations?: Record<string, unknown> }) {
  if (!annotations) return null;
  return (
    <>
      {Object.entries(annotations)
        .filter(([, value]) => typeof value !== "object")
        .map(([key, value]) => (
          <span
            key={key}
            className="mr-1.5 text-2xs whitespace-nowrap text-muted-foreground"
            data-testid="tool-annotation"
          >
            {key}: {String(value)}
          </span>
        ))}
    </>
  );
}

/**
 * The workspace's tool sources with their tools. Read-only is our trusted flag, set here per
 * tool; MCP servers' own hints are displayed next to it but never used for permissions.
 */
export function ToolSourcesManager({ reports, stdioAllowed }: { reports: ToolSourceReport[]; stdioAllowed: boolean }) {
  const router = useRouter();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ToolSourceView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // Checkbox state shown before the refreshed server data arrives (reverted when the save fails).
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});

  const saved = (text: string) => {
    setEditing(null);
    setMessage(text);
    router.refresh();
  };

  const remove = async (source: ToolSourceView) => {
    const result = await sendJson(`/api/tool-sources/${source.id}`, "DELETE");
    setDeleting(null);
    setMessage(result.ok ? `Deleted “${source.name}”.` : result.message);
    router.refresh();
  };

  const refreshTools = async (source: ToolSourceView) => {
    setBusy(source.id);
    const result = await sendJson<{ status: string; error?: { message: string }; tools: unknown[] }>(
      `/api/tool-sources/${source.id}/refresh`,
      "POST",
    );
    setBusy(null);
    if (!result.ok) setMessage(result.message);
    else
      setMessage(
        result.data.status === "ready"
          ? `“${source.name}” lists ${result.data.tools.length} tools.`
          : `“${source.name}” is unavailable: ${result.data.error?.message ?? result.data.status}`,
      );
    router.refresh();
  };

  const toggleReadOnly = async (report: ToolSourceReport, baseName: string, readOnly: boolean) => {
    const current = new Set(report.source.config.readOnlyTools);
    if (readOnly) current.add(baseName);
    else current.delete(baseName);
    const key = `${report.source.id}:${baseName}`;
    setOptimistic((previous) => ({ ...previous, [key]: readOnly }));
    setBusy(report.source.id);
    const result = await sendJson(`/api/tool-sources/${report.source.id}`, "PATCH", { readOnlyTools: [...current] });
    setBusy(null);
    if (!result.ok) {
      setMessage(result.message);
      setOptimistic(({ [key]: _dropped, ...rest }) => rest);
    }
    router.refresh();
  };

  useToastMessage(message);
  return (
    <div data-testid="tool-sources">
      <header className="page-header">
        <h1>Tools</h1>
        <div className="row">
          <button type="button" className="button" data-testid="add-mcp" onClick={() => setEditing({ kind: "mcp" })}>
            Add MCP server
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="add-openapi"
            onClick={() => setEditing({ kind: "openapi" })}
          >
            Add OpenAPI tool set
          </button>
        </div>
      </header>
      <p className="muted">
        Built-in tools are always available. Tools added here appear in every workflow's tool picker for this workspace.
      </p>
      {message && (
        <p className="sr-only" data-testid="tools-message">
          {message}
        </p>
      )}
      {reports.length === 0 && (
        <p className="muted" data-testid="tool-sources-empty">
          No tool sources yet.
        </p>
      )}
      {reports.map((report) => (
        <section
          key={report.source.id}
          className="mb-3 rounded-lg border border-border bg-card px-3.5 py-3 shadow-xs [&_.table]:mt-2.5 [&_.table_td]:px-2.5 [&_.table_td]:py-1.5 [&_.table_th]:px-2.5 [&_.table_th]:py-1.5 [&_.table_td:first-child_code]:whitespace-nowrap"
          data-testid="tool-source"
          data-id={report.source.id}
          data-name={report.source.name}
        >
          <div className="flex items-start justify-between gap-3 [&_h2]:m-0 [&_h2]:flex [&_h2]:items-center [&_h2]:gap-1 [&_h2]:text-base">
            <div>
              <h2>
                {report.source.name}
                <span className="badge">{report.source.kind === "openapi" ? "OpenAPI" : "MCP"}</span>
                <span className={`badge badge-${report.status}`} data-testid="source-status">
                  {report.status}
                </span>
              </h2>
              <div className="muted">{connectionSummary(report.source)}</div>
            </div>
            <div className="row">
              {report.source.kind === "mcp" && (
                <button
                  type="button"
                  className="button-ghost"
                  data-testid="refresh-source"
                  disabled={busy === report.source.id}
                  onClick={() => void refreshTools(report.source)}
                >
                  {busy === report.source.id ? "Refreshing…" : "Refresh tools"}
                </button>
              )}
              <button
                type="button"
                className="button-ghost"
                data-testid="edit-source"
                onClick={() => setEditing({ kind: report.source.kind, source: report.source })}
              >
                Edit
              </button>
              <DeleteButton testId="delete-source" onClick={() => setDeleting(report.source)} />
            </div>
          </div>
          {report.error && (
            <div className="error-box" data-testid="source-problem">
              {report.error.message}
            </div>
          )}
          {report.tools.length > 0 && (
            <table className="table" data-testid="source-tools">
              <thead>
                <tr>
                  <th>Tool</th>
                  <th>Description</th>
                  <th title="Trusted by you; server hints are never used for this">Read-only</th>
                  <th>{report.source.kind === "mcp" ? "Server hints (not trusted)" : "Operation"}</th>
                </tr>
              </thead>
              <tbody>
                {report.tools.map((tool) => (
                  <tr key={tool.name} data-testid="source-tool" data-name={tool.name}>
                    <td>
                      <code>{tool.name}</code>
                    </td>
                    <td className="muted">{tool.description}</td>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`${tool.name} is read-only`}
                        data-testid="tool-read-only"
                        checked={optimistic[`${report.source.id}:${tool.baseName}`] ?? tool.readOnly}
                        disabled={busy === report.source.id}
                        onChange={(event) => void toggleReadOnly(report, tool.baseName, event.target.checked)}
                      />
                    </td>
                    <td>
                      <Annotations annotations={tool.source.annotations} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      {editing?.kind === "openapi" && (
        <OpenApiSourceDialog
          open
          source={editing.source?.kind === "openapi" ? editing.source : undefined}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      {editing?.kind === "mcp" && (
        <McpSourceDialog
          open
          stdioAllowed={stdioAllowed}
          source={editing.source?.kind === "mcp" ? editing.source : undefined}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete tool source?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
        testId="delete-source-dialog"
        confirmTestId="confirm-delete-source"
      >
        <p>
          “{deleting?.name}” and its stored secrets will be deleted. Workflows that use its tools will fail to compile
          until you pick other tools.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
