"use client";

import { useEffect, useState } from "react";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { requestJson } from "./request";

/**
 * "Require this dataset's pass^k ≥ the served version's before publishing": the workflow's publish
 * gate, switched on or off for this dataset. Publishing then answers 409 `publish_regression`
 * (shown in the Publish dialog) while the draft's latest evaluation is worse.
 */
export function PublishGateSetting({ workflowId, datasetId }: { workflowId: string; datasetId: string }) {
  const [gate, setGate] = useState<{ datasetId: string; datasetName: string } | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    requestJson<{ gate: { datasetId: string; datasetName: string } | null }>(`/api/evaluations/gates/${workflowId}`)
      .then((body) => setGate(body.gate))
      .catch((reason: Error) => setError(reason.message));
  }, [workflowId]);

  async function toggle(on: boolean) {
    setError(null);
    try {
      const body = await requestJson<{ gate: { datasetId: string; datasetName: string } | null }>(
        `/api/evaluations/gates/${workflowId}`,
        { method: "PUT", body: { datasetId: on ? datasetId : null } },
      );
      setGate(body.gate);
    } catch (reason) {
      setError((reason as Error).message);
    }
  }

  if (gate === undefined && !error) return null;
  const gatedHere = gate?.datasetId === datasetId;
  return (
    <div className="flex flex-col gap-1" data-testid="publish-gate">
      <CheckboxField
        id={`publish-gate-${datasetId}`}
        data-testid="publish-gate-toggle"
        checked={gatedHere}
        onCheckedChange={(checked) => void toggle(checked === true)}
        label={
          <>
            Before publishing the workflow, require the draft's pass^k on this dataset to be no lower than the served
            version's
            {gate && !gatedHere && (
              <span className="text-muted-foreground"> (currently gated on “{gate.datasetName}”)</span>
            )}
          </>
        }
      />
      {error && (
        <p className="m-0 text-xs text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
