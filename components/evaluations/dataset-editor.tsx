"use client";

import { DownloadIcon, PlusIcon, UploadIcon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { DeleteButton } from "@/components/ui/delete-button";
import { FileButton } from "@/components/ui/file-button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import { Textarea } from "@/components/ui/textarea";
import { datasetCaseSchema } from "@/lib/evaluation/model/dataset";
import { LoadStatus } from "./load-status";
import { PublishGateSetting } from "./publish-gate-setting";
import { requestJson } from "./request";

interface DatasetBody {
  dataset: { id: string; name: string; description: string; workflowId: string | null };
  version: number;
  cases: unknown[];
  versions: { version: number; note: string; caseCount: number }[];
}

/** A case as the table edits it: inputs and checks as JSON text. */
interface CaseRow {
  key: number;
  id: string;
  name: string;
  inputs: string;
  checks: string;
}

let nextKey = 1;

function toRow(entry: unknown): CaseRow {
  const value = entry as { id: string; name?: string; inputs?: unknown; checks?: unknown };
  return {
    key: nextKey++,
    id: value.id,
    name: value.name ?? "",
    inputs: JSON.stringify(value.inputs ?? {}, null, 1),
    checks: JSON.stringify(value.checks ?? [], null, 1),
  };
}

/** Each row's case, or the first problem of each bad row ("row 2, checks.0.pattern: …"). */
function fromRows(rows: CaseRow[]): { cases: unknown[]; problems: string[] } {
  const cases: unknown[] = [];
  const problems: string[] = [];
  rows.forEach((row, index) => {
    let inputs: unknown;
    let checks: unknown;
    try {
      inputs = JSON.parse(row.inputs || "{}");
    } catch {
      problems.push(`Row ${index + 1}, inputs: not valid JSON`);
      return;
    }
    try {
      checks = JSON.parse(row.checks || "[]");
    } catch {
      problems.push(`Row ${index + 1}, checks: not valid JSON`);
      return;
    }
    const parsed = datasetCaseSchema.safeParse({ id: row.id, name: row.name, inputs, checks });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(`Row ${index + 1}, ${issue.path.join(".")}: ${issue.message}`);
      return;
    }
    cases.push(parsed.data);
  });
  return { cases, problems };
}

/** The dataset table editor: edit cases, save as a new version, import and export JSONL/CSV, browse versions. */
export function DatasetEditor({ datasetId }: { datasetId: string }) {
  const [body, setBody] = useState<DatasetBody | null>(null);
  const [rows, setRows] = useState<CaseRow[]>([]);
  const [viewing, setViewing] = useState<number | undefined>(undefined);
  const [message, setMessage] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const load = useCallback(
    async (version?: number) => {
      try {
        const loaded = await requestJson<DatasetBody>(
          `/api/datasets/${datasetId}${version ? `?version=${version}` : ""}`,
        );
        setBody(loaded);
        setRows(loaded.cases.map(toRow));
        setViewing(version);
      } catch (reason) {
        setProblems([(reason as Error).message]);
      }
    },
    [datasetId],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const latest = body?.versions[0]?.version ?? 0;
  const readOnly = viewing !== undefined && viewing !== latest;

  async function save() {
    const { cases, problems: found } = fromRows(rows);
    setProblems(found);
    if (found.length || !body) return;
    try {
      const saved = await requestJson<{ version: number }>(`/api/datasets/${datasetId}`, {
        method: "PUT",
        body: { cases, expectedVersion: body.version },
      });
      setMessage(`Saved as version ${saved.version}.`);
      await load();
    } catch (reason) {
      setProblems([(reason as Error).message]);
    }
  }

  async function importFile(file: File) {
    const format = file.name.toLowerCase().endsWith(".csv") ? "csv" : "jsonl";
    try {
      const imported = await requestJson<{ version: number; cases: number }>("/api/datasets/import", {
        method: "POST",
        body: { format, text: await file.text(), datasetId },
      });
      setMessage(`Imported ${imported.cases} cases as version ${imported.version}.`);
      setProblems([]);
      await load();
    } catch (reason) {
      setProblems([(reason as Error).message]);
    }
  }

  function update(key: number, patch: Partial<CaseRow>) {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  }

  if (!body) return <LoadStatus error={problems[0]} />;
  return (
    <div className="flex flex-col gap-4" data-testid="dataset-editor" data-version={body.version}>
      <div className="flex flex-col gap-1">
        <h2 className="m-0 text-xl font-semibold" data-testid="dataset-name">
          {body.dataset.name}
        </h2>
        {body.dataset.description && <p className="m-0 text-sm text-muted-foreground">{body.dataset.description}</p>}
      </div>
      {body.dataset.workflowId && <PublishGateSetting workflowId={body.dataset.workflowId} datasetId={datasetId} />}
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="dataset-version">Version</Label>
          <NativeSelect
            id="dataset-version"
            wrapperClassName="w-64"
            data-testid="dataset-version"
            value={body.version}
            onChange={(event) => void load(Number(event.target.value))}
          >
            {body.versions.map((version) => (
              <option key={version.version} value={version.version}>
                v{version.version} — {version.caseCount} cases{version.note ? ` (${version.note})` : ""}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          <a
            className={buttonVariants({ variant: "outline" })}
            href={`/api/datasets/${datasetId}/export?format=jsonl&version=${body.version}`}
            data-testid="export-jsonl"
          >
            <DownloadIcon aria-hidden="true" /> Export JSONL
          </a>
          <a
            className={buttonVariants({ variant: "outline" })}
            href={`/api/datasets/${datasetId}/export?format=csv&version=${body.version}`}
            data-testid="export-csv"
          >
            <DownloadIcon aria-hidden="true" /> Export CSV
          </a>
          <FileButton accept=".jsonl,.csv,.ndjson" testId="import-file" onFile={(file) => void importFile(file)}>
            <UploadIcon aria-hidden="true" /> Import JSONL or CSV
          </FileButton>
        </div>
      </div>
      {message && (
        <Alert tone="success" role="status" data-testid="dataset-message">
          {message}
        </Alert>
      )}
      {problems.length > 0 && (
        <Alert tone="destructive" role="alert" data-testid="dataset-problems">
          <ul className="m-0 flex flex-col gap-0.5 pl-4">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Alert>
      )}
      <Table data-testid="case-table">
        <TableHeadRow columns={["Id", "Name", "Inputs (JSON)", "Checks (JSON)"]} actions />
        <TableBody>
          {rows.map((row, index) => (
            <TableRow key={row.key} data-testid="case-row" data-id={row.id} className="hover:bg-transparent">
              <TableCell className="w-40 min-w-32 align-top">
                <Input
                  className="font-mono text-xs"
                  aria-label={`Row ${index + 1} id`}
                  value={row.id}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { id: event.target.value })}
                />
              </TableCell>
              <TableCell className="w-48 min-w-32 align-top">
                <Input
                  aria-label={`Row ${index + 1} name`}
                  value={row.name}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { name: event.target.value })}
                />
              </TableCell>
              <TableCell className="min-w-48 align-top">
                <Textarea
                  className="min-h-0 font-mono text-xs"
                  rows={3}
                  aria-label={`Row ${index + 1} inputs`}
                  value={row.inputs}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { inputs: event.target.value })}
                />
              </TableCell>
              <TableCell className="min-w-48 align-top">
                <Textarea
                  className="min-h-0 font-mono text-xs"
                  rows={3}
                  aria-label={`Row ${index + 1} checks`}
                  value={row.checks}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { checks: event.target.value })}
                />
              </TableCell>
              <TableCell className="w-px align-top">
                {!readOnly && (
                  <DeleteButton
                    label="Remove"
                    ariaLabel={`Remove row ${index + 1}`}
                    onClick={() => setRows((current) => current.filter((entry) => entry.key !== row.key))}
                  />
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!readOnly && (
        <div className="flex flex-wrap gap-2">
          <Button
            data-testid="case-add"
            onClick={() =>
              setRows((current) => [
                ...current,
                { key: nextKey++, id: `case-${current.length + 1}`, name: "", inputs: "{}", checks: "[]" },
              ])
            }
          >
            <PlusIcon /> Add case
          </Button>
          <Button variant="primary" data-testid="dataset-save" onClick={() => void save()}>
            Save as new version
          </Button>
        </div>
      )}
      {readOnly && (
        <p className="m-0 text-sm text-muted-foreground">An older version is read-only; pick the latest to edit.</p>
      )}
    </div>
  );
}
