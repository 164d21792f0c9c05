"use client";

import { PlusIcon, RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page";
import { SectionCard } from "@/components/ui/section-card";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { ToolSourceReport } from "@/lib/contracts/settings-views";
import type { ToolSourceView } from "@/lib/contracts/tool-source-config";
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
    <div data-testid="tool-sources" className="flex flex-col gap-4">
      <PageHeader
        title="Tools"
        description="Built-in tools are always available. Tools added here appear in every workflow's tool picker for this workspace."
        actions={
          <>
            <Button data-testid="add-mcp" onClick={() => setEditing({ kind: "mcp" })}>
              <PlusIcon /> Add MCP server
            </Button>
            <Button variant="primary" data-testid="add-openapi" onClick={() => setEditing({ kind: "openapi" })}>
              <PlusIcon /> Add OpenAPI tool set
            </Button>
          </>
        }
      />
      {message && (
        <p className="sr-only" data-testid="tools-message">
          {message}
        </p>
      )}
      {reports.length === 0 && <EmptyState data-testid="tool-sources-empty">No tool sources yet.</EmptyState>}
      {reports.map((report) => (
        <SectionCard
          key={report.source.id}
          titleId={`tool-source-${report.source.id}`}
          data-testid="tool-source"
          data-id={report.source.id}
          data-name={report.source.name}
          title={
            <>
              {report.source.name}
              <Badge tone="outline">{report.source.kind === "openapi" ? "OpenAPI" : "MCP"}</Badge>
              <StatusBadge status={report.status} testId="source-status" />
            </>
          }
          description={connectionSummary(report.source)}
          actions={
            <>
              {report.source.kind === "mcp" && (
                <Button
                  variant="ghost"
                  size="sm"
                  data-testid="refresh-source"
                  disabled={busy === report.source.id}
                  onClick={() => void refreshTools(report.source)}
                >
                  <RefreshCwIcon /> {busy === report.source.id ? "Refreshing…" : "Refresh tools"}
                </Button>
              )}
              <Button
                variant="ghost"
                size="sm"
                data-testid="edit-source"
                aria-label={`Edit ${report.source.name}`}
                onClick={() => setEditing({ kind: report.source.kind, source: report.source })}
              >
                Edit
              </Button>
              <DeleteButton
                testId="delete-source"
                ariaLabel={`Delete ${report.source.name}`}
                onClick={() => setDeleting(report.source)}
              />
            </>
          }
          contentClassName="flex flex-col gap-3"
        >
          {(report.error || report.tools.length > 0) && (
            <>
              {report.error && (
                <Alert tone="destructive" data-testid="source-problem">
                  {report.error.message}
                </Alert>
              )}
              {report.tools.length > 0 && (
                <Table data-testid="source-tools">
                  <TableHeadRow
                    columns={[
                      "Tool",
                      "Description",
                      { label: "Read-only", title: "Trusted by you; server hints are never used for this" },
                      report.source.kind === "mcp" ? "Server hints (not trusted)" : "Operation",
                    ]}
                  />
                  <TableBody>
                    {report.tools.map((tool) => (
                      <TableRow key={tool.name} data-testid="source-tool" data-name={tool.name}>
                        <TableCell className="py-2">
                          <code className="text-xs whitespace-nowrap">{tool.name}</code>
                        </TableCell>
                        <TableCell className="py-2 text-muted-foreground">{tool.description}</TableCell>
                        <TableCell className="py-2">
                          <Checkbox
                            className="align-middle"
                            aria-label={`${tool.name} is read-only`}
                            data-testid="tool-read-only"
                            checked={optimistic[`${report.source.id}:${tool.baseName}`] ?? tool.readOnly}
                            disabled={busy === report.source.id}
                            onCheckedChange={(checked) => void toggleReadOnly(report, tool.baseName, checked === true)}
                          />
                        </TableCell>
                        <TableCell className="py-2">
                          <Annotations annotations={tool.source.annotations} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </>
          )}
        </SectionCard>
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
        <p className="m-0">
          “{deleting?.name}” and its stored secrets will be deleted. Workflows that use its tools will fail to compile
          until you pick other tools.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
