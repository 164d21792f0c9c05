"use client";

import { DatabaseIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { requestJson } from "./request";

interface DatasetOption {
  id: string;
  name: string;
}

/**
 * "Add to dataset" on a run's page: a popover where the run's inputs (and, optionally, its output
 * as the expected one) become a case of a dataset, saved as that dataset's next version.
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

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        // Each opening starts clean: the last run's outcome is not this one's.
        if (next) {
          setAdded(null);
          setError(null);
        }
        setOpen(next);
      }}
    >
      <PopoverTrigger asChild>
        <Button data-testid="add-to-dataset">
          <DatabaseIcon /> Add to dataset
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80" aria-label="Add this run to a dataset">
        <form
          className="flex flex-col"
          data-testid="add-to-dataset-form"
          onSubmit={submit}
          aria-label="Add this run to a dataset"
        >
          <FormField id="add-to-dataset-select" label="Dataset" errorTestId="add-to-dataset-error-dataset">
            <NativeSelect
              id="add-to-dataset-select"
              data-testid="add-to-dataset-select"
              value={datasetId}
              onChange={(event) => setDatasetId(event.target.value)}
              options={datasets.map((dataset) => ({ value: dataset.id, label: dataset.name }))}
            >
              <option value="">New dataset…</option>
            </NativeSelect>
          </FormField>
          {!datasetId && (
            <FormField id="add-to-dataset-name" label="New dataset name" errorTestId="add-to-dataset-error-name">
              <Input
                id="add-to-dataset-name"
                data-testid="add-to-dataset-name"
                value={newName}
                placeholder="Workflow cases"
                onChange={(event) => setNewName(event.target.value)}
              />
            </FormField>
          )}
          <CheckboxField
            id="add-to-dataset-expect"
            className="mb-3"
            data-testid="add-to-dataset-expect"
            checked={expectOutput}
            onCheckedChange={(checked) => setExpectOutput(checked === true)}
            label="Use its output as the expected one"
          />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Close</Button>
            <Button type="submit" variant="primary" data-testid="add-to-dataset-submit" disabled={busy}>
              {busy ? "Adding…" : "Add"}
            </Button>
          </div>
          {error && (
            <p className="m-0 mt-2 text-xs text-destructive" role="alert">
              {error}
            </p>
          )}
          {added && (
            <Alert tone="success" role="status" className="mt-3" data-testid="add-to-dataset-done">
              Added as case <code>{added.caseId}</code> (version {added.version}).{" "}
              <Link href={`/evaluations/datasets/${added.datasetId}`}>Open the dataset</Link>
            </Alert>
          )}
        </form>
      </PopoverContent>
    </Popover>
  );
}
