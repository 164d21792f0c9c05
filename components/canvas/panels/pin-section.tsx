"use client";

import { PinIcon, PinOffIcon } from "lucide-react";
import { memo, useState } from "react";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { parseMockOutputs, readPin } from "@/lib/workflow/pins";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/**
 * Pin data for the selected node (see lib/workflow/pins.ts): pin the outputs of the editor's last
 * run, or type mock outputs as JSON, so later editor runs and single-node runs use them without
 * executing the node; unpin to execute it again. Published and API runs always execute it.
 */
export const PinSection = memo(function PinSection({ nodeId }: { nodeId: string }) {
  const store = useEditorStoreApi();
  const readOnly = useEditorStore((state) => state.readOnly);
  const pinValue = useEditorStore((state) => state.nodes.find((node) => node.id === nodeId)?.data.pin);
  const pin = pinValue === undefined ? undefined : readPin({ pin: pinValue });
  // The latest top-level outputs of this node in the editor's current run, if it finished.
  const lastRun = useEditorStore((state) => {
    for (let index = state.runEvents.length - 1; index >= 0; index--) {
      const event = state.runEvents[index];
      if (event.type === "node-end" && event.nodeId === nodeId && event.iterationPath.length === 0) return event;
    }
    return undefined;
  });
  const runId = useEditorStore((state) => state.runId);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const setPin = (value: unknown) => store.getState().updateNodeConfig(nodeId, { pin: value });
  const saveMock = () => {
    const parsed = parseMockOutputs(draft ?? "");
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setPin({ outputs: parsed.outputs, source: "mock" });
    setDraft(null);
    setError(null);
  };

  return (
    <section
      className="flex flex-col gap-2 border-t border-border pt-3"
      aria-label="Pinned outputs"
      data-testid="pin-section"
    >
      <h3 className="m-0 flex items-center gap-1 text-xs font-semibold">
        <PinIcon className="size-3.5" aria-hidden="true" /> Pinned outputs
      </h3>
      {pin ? (
        <>
          <p className="m-0 text-xs text-muted-foreground" data-testid="pin-status">
            {pin.source === "run" ? "Pinned from a run." : "Mock outputs."} Editor runs skip this node and use these
            outputs; published and API runs execute it.
          </p>
          <CodeBlock className="max-h-40 text-2xs" data-testid="pin-outputs">
            {JSON.stringify(pin.outputs, null, 2)}
          </CodeBlock>
        </>
      ) : (
        <p className="m-0 text-xs text-muted-foreground">
          Not pinned. Pin outputs to build the rest of the flow without running this node again.
        </p>
      )}
      {draft !== null && (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`pin-mock-${nodeId}`}>Mock outputs (JSON object)</Label>
          <Textarea
            id={`pin-mock-${nodeId}`}
            data-testid="pin-mock-input"
            className="min-h-24 font-mono text-xs"
            value={draft}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setDraft(event.target.value)}
          />
          {error && (
            <p className="m-0 text-xs text-destructive" data-testid="pin-mock-error">
              {error}
            </p>
          )}
          <div className="flex gap-1">
            <Button size="sm" variant="primary" data-testid="pin-mock-save" onClick={saveMock}>
              Pin these outputs
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {!readOnly && draft === null && (
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            data-testid="pin-from-run"
            disabled={lastRun?.type !== "node-end"}
            onClick={() =>
              lastRun?.type === "node-end" &&
              setPin({ outputs: lastRun.outputs, source: "run", ...(runId ? { runId } : {}) })
            }
          >
            <PinIcon /> Pin last run’s outputs
          </Button>
          <Button
            size="sm"
            data-testid="pin-mock"
            onClick={() => setDraft(JSON.stringify(pin?.outputs ?? {}, null, 2))}
          >
            {pin ? "Edit outputs…" : "Type mock outputs…"}
          </Button>
          {pin && (
            <Button size="sm" variant="ghost" data-testid="unpin" onClick={() => setPin(undefined)}>
              <PinOffIcon /> Unpin
            </Button>
          )}
        </div>
      )}
    </section>
  );
});
