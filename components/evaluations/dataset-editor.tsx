"use client";

import { useCallback, useEffect, useState } from "react";
import { datasetCaseSchema } from "@/lib/evaluation/model/dataset";
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

  if (!body) return problems.length ? <p className="error-box">{problems[0]}</p> : <p className="muted">Loading…</p>;
  return (
    <div className="dataset-editor" data-testid="dataset-editor" data-version={body.version}>
      <h2 data-testid="dataset-name">{body.dataset.name}</h2>
      {body.dataset.description && <p className="muted">{body.dataset.description}</p>}
      {body.dataset.workflowId && <PublishGateSetting workflowId={body.dataset.workflowId} datasetId={datasetId} />}
      <div className="row">
        <label className="field">
          <span className="field-label">Version</span>
          <select
            className="input"
            data-testid="dataset-version"
            value={body.version}
            onChange={(event) => void load(Number(event.target.value))}
          >
            {body.versions.map((version) => (
              <option key={version.version} value={version.version}>
                v{version.version} — {version.caseCount} cases{version.note ? ` (${version.note})` : ""}
              </option>
            ))}
          </select>
        </label>
        <a
          className="button"
          href={`/api/datasets/${datasetId}/export?format=jsonl&version=${body.version}`}
          data-testid="export-jsonl"
        >
          Export JSONL
        </a>
        <a
          className="button"
          href={`/api/datasets/${datasetId}/export?format=csv&version=${body.version}`}
          data-testid="export-csv"
        >
          Export CSV
        </a>
        <label className="button">
          Import JSONL or CSV
          <input
            type="file"
            accept=".jsonl,.csv,.ndjson"
            className="sr-only"
            data-testid="import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void importFile(file);
              event.target.value = "";
            }}
          />
        </label>
      </div>
      {message && (
        <p className="notice" role="status" data-testid="dataset-message">
          {message}
        </p>
      )}
      {problems.length > 0 && (
        <ul className="error-box" role="alert" data-testid="dataset-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <table className="table" data-testid="case-table">
        <thead>
          <tr>
            <th>Id</th>
            <th>Name</th>
            <th>Inputs (JSON)</th>
            <th>Checks (JSON)</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.key} data-testid="case-row" data-id={row.id}>
              <td>
                <input
                  className="input"
                  aria-label={`Row ${index + 1} id`}
                  value={row.id}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { id: event.target.value })}
                />
              </td>
              <td>
                <input
                  className="input"
                  aria-label={`Row ${index + 1} name`}
                  value={row.name}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { name: event.target.value })}
                />
              </td>
              <td>
                <textarea
                  className="input code-input"
                  rows={3}
                  aria-label={`Row ${index + 1} inputs`}
                  value={row.inputs}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { inputs: event.target.value })}
                />
              </td>
              <td>
                <textarea
                  className="input code-input"
                  rows={3}
                  aria-label={`Row ${index + 1} checks`}
                  value={row.checks}
                  readOnly={readOnly}
                  onChange={(event) => update(row.key, { checks: event.target.value })}
                />
              </td>
              <td>
                {!readOnly && (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Remove row ${index + 1}`}
                    onClick={() => setRows((current) => current.filter((entry) => entry.key !== row.key))}
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!readOnly && (
        <div className="row">
          <button
            type="button"
            className="button"
            data-testid="case-add"
            onClick={() =>
              setRows((current) => [
                ...current,
                { key: nextKey++, id: `case-${current.length + 1}`, name: "", inputs: "{}", checks: "[]" },
              ])
            }
          >
            Add case
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="dataset-save"
            onClick={() => void save()}
          >
            Save as new version
          </button>
        </div>
      )}
      {readOnly && <p className="muted">An older version is read-only; pick the latest to edit.</p>}
    </div>
  );
}
