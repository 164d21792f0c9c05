"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { requestJson } from "./request";

interface DatasetOption {
  id: string;
  name: string;
}

/**
 * "Add to dataset" on a run's page: the run's inputs (and, optionally, its output as the expected
 * one) become a case of a dataset, saved as that dataset's next version.
 */
export function AddToDatasetButton({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const [datasets, setDatasets] = useState<DatasetOption[]>([]);
  const [datasetId, setDatasetId] = useState("");
  const [newName, setNewName] = useState("");
  const [expectOutput, setExpectOutput] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<{ datasetId: string; version: number; caseId: string } | null>(null);

  useEffect(() => {
    if (!open) return;
    requestJson<{ datasets: DatasetOption[] }>("/api/datasets")
      .then((body) => setDatasets(body.datasets))
      .catch((reason: Error) => setError(reason.message));
  }, [open]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await requestJson<{ datasetId: string; version: number; caseId: string }>(
        "/api/datasets/from-run",
        {
          method: "POST",
          body: { runId, expectOutput, ...(datasetId ? { datasetId } : { newDatasetName: newName || undefined }) },
        },
      );
      setAdded(result);
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (!open)
    return (
      <button type="button" className="button" data-testid="add-to-dataset" onClick={() => setOpen(true)}>
        Add to dataset
      </button>
    );
  return (
    <form
      className="add-to-dataset row"
      data-testid="add-to-dataset-form"
      onSubmit={submit}
      aria-label="Add this run to a dataset"
    >
      <label className="field">
        <span className="field-label">Dataset</span>
        <select
          className="input"
          data-testid="add-to-dataset-select"
          value={datasetId}
          onChange={(event) => setDatasetId(event.target.value)}
        >
          <option value="">New dataset…</option>
          {datasets.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name}
            </option>
          ))}
        </select>
      </label>
      {!datasetId && (
        <label className="field">
          <span className="field-label">New dataset name</span>
          <input
            className="input"
            data-testid="add-to-dataset-name"
            value={newName}
            placeholder="Workflow cases"
            onChange={(event) => setNewName(event.target.value)}
          />
        </label>
      )}
      <label className="row">
        <input
          type="checkbox"
          data-testid="add-to-dataset-expect"
          checked={expectOutput}
          onChange={(event) => setExpectOutput(event.target.checked)}
        />
        Use its output as the expected one
      </label>
      <button type="submit" className="button button-primary" data-testid="add-to-dataset-submit" disabled={busy}>
        {busy ? "Adding…" : "Add"}
      </button>
      <button type="button" className="button" onClick={() => setOpen(false)}>
        Close
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {added && (
        <p className="notice" role="status" data-testid="add-to-dataset-done">
          Added as case <code>{added.caseId}</code> (version {added.version}).{" "}
          <Link href={`/evaluations/datasets/${added.datasetId}`}>Open the dataset</Link>
        </p>
      )}
    </form>
  );
}
