"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { isLargeValueRef, type LargeValueRef } from "@/lib/runs/large-values";
import { JsonTree } from "./json-tree";

/**
 * A node-run value the run detail sent as a reference because of its size: its size and a
 * preview, and a button that loads the whole node run and shows the value as a tree.
 */
export function LargeValue({ value, testId }: { value: unknown; testId: string }) {
  const [loaded, setLoaded] = useState<{ value: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  if (!isLargeValueRef(value)) return <JsonTree value={value} testId={testId} />;
  if (loaded) return <JsonTree value={loaded.value} testId={testId} />;
  const ref: LargeValueRef = value;
  const load = async () => {
    setLoading(true);
    setError(null);
    try {
      const response = await fetch(ref.href);
      if (!response.ok) throw new Error(`Could not load the value (${response.status})`);
      const nodeRun = (await response.json()) as Record<string, unknown>;
      setLoaded({ value: nodeRun[ref.field] });
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="flex flex-col gap-2" data-testid={`${testId}-large`}>
      <p className="m-0 text-xs text-muted-foreground">Large value: {formatBytes(ref.bytes)}. The start of it:</p>
      <pre className="m-0 max-h-40 overflow-auto rounded-md border border-border bg-muted/50 p-2 text-xs break-all whitespace-pre-wrap">
        {ref.preview}…
      </pre>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => void load()} disabled={loading}>
          {loading ? "Loading…" : "Load the whole value"}
        </Button>
      </div>
      {error && (
        <p className="m-0 text-xs text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
