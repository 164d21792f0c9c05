"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormError, DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FileInput } from "@/components/ui/file-input";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Textarea } from "@/components/ui/textarea";
import { detectImportFormat, type ImportFormat } from "@/lib/interop/detect-format";
import type {
  ImportReport,
  NodeImportStatus,
  ReferenceKind,
  ReferenceMapping,
  WorkspaceReference,
} from "@/lib/interop/report";

const STATUS_LABELS: Record<NodeImportStatus, string> = {
  mapped: "mapped",
  changed: "changed",
  unsupported: "not supported",
};
const STATUS_TONES: Record<NodeImportStatus, "success" | "warning" | "destructive"> = {
  mapped: "success",
  changed: "warning",
  unsupported: "destructive",
};
const MAPPING_KEYS: Record<Exclude<ReferenceKind, "tool-source">, keyof ReferenceMapping> = {
  tool: "tools",
  credential: "credentials",
  provider: "providers",
};
const KIND_LABELS: Record<ReferenceKind, string> = {
  tool: "Tool",
  credential: "HTTP credential",
  provider: "Model provider",
  "tool-source": "Tool source",
};

interface ImportError {
  message: string;
  path?: string;
}

async function readError(response: Response): Promise<ImportError> {
  try {
    const body = (await response.json()) as { error?: { message?: string; path?: string; field?: string } };
    return { message: body.error?.message ?? response.statusText, path: body.error?.path ?? body.error?.field };
  } catch {
    return { message: `Request failed (${response.status})` };
  }
}

function toMapping(choices: Record<string, string>): ReferenceMapping {
  const mapping: ReferenceMapping = {};
  for (const [key, target] of Object.entries(choices)) {
    if (!target) continue;
    const [kind, ...rest] = key.split(":");
    const table = MAPPING_KEYS[kind as keyof typeof MAPPING_KEYS];
    if (!table) continue;
    mapping[table] = { ...(mapping[table] ?? {}), [rest.join(":")]: target };
  }
  return mapping;
}

/**
 * Imports a Dify DSL file or a Trellis export: upload or paste, the format is detected, the
 * server's dry run shows the report (per node, secrets, missing references with a mapping
 * select, compile state), then "Import" saves and opens the editor.
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const [content, setContent] = useState("");
  const [format, setFormat] = useState<ImportFormat>("dify");
  const [name, setName] = useState("");
  const [report, setReport] = useState<ImportReport | null>(null);
  const [missing, setMissing] = useState<WorkspaceReference[]>([]);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [error, setError] = useState<ImportError | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (
    dryRun: boolean,
    text: string,
    chosen: Record<string, string>,
    chosenFormat: ImportFormat,
    chosenName: string,
  ) => {
    setBusy(true);
    setError(null);
    try {
      return await fetch("/api/workflows/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          format: chosenFormat,
          content: text,
          name: chosenName.trim() || undefined,
          mapping: toMapping(chosen),
          dryRun,
        }),
      });
    } finally {
      setBusy(false);
    }
  };

  const check = async (text = content, chosen = choices, chosenFormat = format, chosenName = name) => {
    if (text.trim() === "") {
      setError({ message: "Upload a file or paste its content first.", path: "content" });
      return;
    }
    const response = await send(true, text, chosen, chosenFormat, chosenName);
    if (!response.ok) {
      setReport(null);
      setError(await readError(response));
      return;
    }
    const body = (await response.json()) as { name: string; report: ImportReport };
    setReport(body.report);
    // A new file brings its own name, unless the person typed one.
    if (chosenName.trim() === "") setName(body.name);
    // The selects stay for every reference that was missing before any mapping.
    if (Object.keys(chosen).length === 0)
      setMissing(body.report.references.filter((reference) => !reference.available));
  };

  const load = (text: string) => {
    const detected = detectImportFormat(text);
    setContent(text);
    setFormat(detected);
    setChoices({});
    setMissing([]);
    setReport(null);
    setName("");
    void check(text, {}, detected, "");
  };

  const save = async () => {
    const response = await send(false, content, choices, format, name);
    if (!response.ok) {
      setError(await readError(response));
      return;
    }
    const { id } = (await response.json()) as { id: string };
    router.push(`/workflows/${id}`);
  };

  const close = () => {
    setContent("");
    setName("");
    setReport(null);
    setMissing([]);
    setChoices({});
    setError(null);
    onClose();
  };

  return (
    <Dialog
      open={open}
      title="Import a workflow"
      onClose={close}
      testId="import-dialog"
      wide
      footer={
        <DialogFormFooter
          check={{ label: "Check", pending: busy, testId: "import-check", onClick: () => void check() }}
          submit={{
            label: "Import",
            pending: busy,
            disabled: report === null,
            testId: "import-confirm",
            onClick: () => void save(),
          }}
        />
      }
    >
      <p className="mt-0 mb-4 text-sm text-muted-foreground">
        A Dify DSL file (YAML, workflow or chatflow) or a Trellis export (JSON). Nothing is saved until you import.
      </p>
      <FormField id="import-upload" label="Upload a file" errorTestId="import-upload-error">
        <FileInput
          id="import-upload"
          accept=".yml,.yaml,.json,application/json,application/x-yaml,text/yaml"
          data-testid="import-upload"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void file.text().then(load);
          }}
        />
      </FormField>
      <FormField id="import-content" label="Or paste the file" errorTestId="import-content-error">
        <Textarea
          id="import-content"
          className="font-mono text-xs"
          rows={6}
          spellCheck={false}
          value={content}
          data-testid="import-content"
          onChange={(event) => {
            setContent(event.target.value);
            setFormat(detectImportFormat(event.target.value));
            setReport(null);
          }}
        />
      </FormField>
      <div className="grid gap-x-3 sm:grid-cols-2">
        <FormField id="import-format" label="Format" errorTestId="import-format-error">
          <NativeSelect
            id="import-format"
            value={format}
            data-testid="import-format"
            onChange={(event) => setFormat(event.target.value as ImportFormat)}
          >
            <option value="dify">Dify DSL (YAML)</option>
            <option value="trellis">Trellis export (JSON)</option>
          </NativeSelect>
        </FormField>
        <FormField id="import-name" label="Workflow name" errorTestId="import-name-error">
          <Input
            id="import-name"
            value={name}
            data-testid="import-name"
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
      </div>
      {error && (
        <DialogFormError title="The file cannot be imported:" data-testid="import-error" data-path={error.path}>
          {error.message}
        </DialogFormError>
      )}
      {report && (
        <ImportReportView
          report={report}
          missing={missing}
          choices={choices}
          onChoose={(key, target) => {
            const next = { ...choices, [key]: target };
            setChoices(next);
            void check(content, next, format);
          }}
        />
      )}
    </Dialog>
  );
}

function ImportReportView({
  report,
  missing,
  choices,
  onChoose,
}: {
  report: ImportReport;
  missing: WorkspaceReference[];
  choices: Record<string, string>;
  onChoose: (key: string, target: string) => void;
}) {
  const errors = report.compile.issues.filter((issue) => issue.severity === "error");
  return (
    <section className="mt-2 flex flex-col gap-3" data-testid="import-report">
      <p className="m-0 text-sm" data-testid="import-summary">
        <b>{report.nodes.length} nodes:</b> {report.summary.mapped} mapped, {report.summary.changed} changed,{" "}
        {report.summary.unsupported} not supported.{" "}
        {report.compile.ok ? (
          <span data-testid="import-compiles">The workflow compiles.</span>
        ) : (
          <span data-testid="import-compile-issues">
            {errors.length} issues to fix in the editor (shown on the nodes).
          </span>
        )}
      </p>
      <Table data-testid="import-nodes">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Node</TableHead>
            <TableHead>From → to</TableHead>
            <TableHead>Result</TableHead>
            <TableHead className="w-full">Details</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {report.nodes.map((node) => (
            <TableRow
              key={node.sourceId}
              className="align-top"
              data-testid="import-node"
              data-id={node.nodeId}
              data-status={node.status}
            >
              <TableCell className="align-top font-medium">{node.title || node.sourceType}</TableCell>
              <TableCell className="align-top text-xs whitespace-nowrap">
                <code>{node.sourceType}</code> → <code>{node.trellisType}</code>
              </TableCell>
              <TableCell className="align-top">
                <Badge tone={STATUS_TONES[node.status]}>{STATUS_LABELS[node.status]}</Badge>
              </TableCell>
              <TableCell className="align-top text-xs text-muted-foreground">
                {node.reason && <div data-testid="import-node-reason">{node.reason}</div>}
                {node.changes.length > 0 && (
                  <ul className="my-0 pl-4">
                    {node.changes.map((change) => (
                      <li key={change}>{change}</li>
                    ))}
                  </ul>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {report.secrets.length > 0 && (
        <Alert tone="warning" title="Secrets were not imported; these slots are empty:" data-testid="import-secrets">
          <ul>
            {report.secrets.map((slot) => (
              <li
                key={`${slot.kind}:${slot.name}:${slot.sourcePath}`}
                data-testid="import-secret"
                data-name={slot.name}
              >
                <code>{slot.name}</code>: {slot.message}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {missing.length > 0 && (
        <div className="flex flex-col gap-1" data-testid="import-references">
          <h3 className="m-0 mb-1 text-sm font-semibold">Missing in this workspace</h3>
          {missing.map((reference) => {
            const key = `${reference.kind}:${reference.name}`;
            const id = `import-map-${key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
            return (
              <FormField
                key={key}
                id={id}
                label={`${KIND_LABELS[reference.kind]} “${reference.name}”: map to`}
                errorTestId={`${id}-error`}
              >
                <NativeSelect
                  id={id}
                  data-testid="import-reference"
                  data-name={reference.name}
                  value={choices[key] ?? ""}
                  onChange={(event) => onChoose(key, event.target.value)}
                >
                  <option value="">Leave missing</option>
                  {reference.candidates.map((candidate) => (
                    <option key={candidate} value={candidate}>
                      {candidate}
                    </option>
                  ))}
                </NativeSelect>
                <p className="m-0 text-xs text-muted-foreground">{reference.message}</p>
              </FormField>
            );
          })}
        </div>
      )}
      {report.notes.length > 0 && (
        <ul className="my-0 pl-5 text-xs text-muted-foreground" data-testid="import-notes">
          {report.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
