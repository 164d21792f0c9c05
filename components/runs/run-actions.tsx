"use client";

import { Copy, Download, GitCompare, RotateCcw } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunDetail } from "@/lib/runs/node-run-view";

/** The re-run choices, as the re-run endpoint names them. */
const TARGETS = [
  { value: "same", label: "same version" },
  { value: "draft", label: "current draft" },
  { value: "latest", label: "latest version" },
] as const;

/** A run id from what a person pastes: the id itself or a run page URL. */
export function runIdFrom(text: string): string {
  const trimmed = text.trim();
  const match = /\/runs\/([^/?#]+)/.exec(trimmed);
  return decodeURIComponent(match ? match[1] : trimmed);
}

/**
 * What a person can do with a finished run: re-run it with the same inputs, compare it with
 * another, download it, and copy the read-only link for a colleague. Also where it came from
 * (re-run of …) and its re-runs.
 */
export function RunActions({ detail, canRun, readOnly }: { detail: RunDetail; canRun: boolean; readOnly?: boolean }) {
  const router = useRouter();
  const { run, lineage } = detail;
  const hasVersion = detail.workflow?.version != null;
  const [target, setTarget] = useState<string>(hasVersion ? "same" : "draft");
  const [other, setOther] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const trigger = (run as { trigger?: string }).trigger;

  const rerun = async () => {
    setBusy(true);
    setMessage(null);
    const response = await fetch(`/api/runs/${run.id}/rerun`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ target }),
    }).catch(() => null);
    setBusy(false);
    const body = (await response?.json().catch(() => null)) as { runId?: string; error?: { message?: string } } | null;
    if (!response?.ok || !body?.runId) {
      setMessage(body?.error?.message ?? "Could not start the re-run.");
      return;
    }
    router.push(`/runs/${body.runId}`);
  };
  const compare = (event: FormEvent) => {
    event.preventDefault();
    const id = runIdFrom(other);
    if (id) router.push(`/runs/compare?a=${encodeURIComponent(run.id)}&b=${encodeURIComponent(id)}`);
  };
  const copyShareLink = async () => {
    const url = `${window.location.origin}/runs/${encodeURIComponent(run.id)}?view=share`;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setMessage(`Read-only link copied (members of this workspace only): ${url}`);
  };

  return (
    <section
      className="flex flex-col gap-2 rounded-lg border border-border bg-card p-3 text-sm"
      aria-label="Run actions"
    >
      {(lineage?.rerunOfId || (lineage?.reruns.length ?? 0) > 0) && (
        <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="run-lineage">
          {lineage?.rerunOfId && (
            <span>
              Re-run of{" "}
              <Link
                href={`/runs/${lineage.rerunOfId}`}
                className="text-primary hover:underline"
                data-testid="rerun-of-link"
              >
                run {lineage.rerunOfId}
              </Link>{" "}
              (
              <Link
                href={`/runs/compare?a=${lineage.rerunOfId}&b=${run.id}`}
                className="text-primary hover:underline"
                data-testid="compare-with-original"
              >
                compare
              </Link>
              )
            </span>
          )}
          {(lineage?.reruns.length ?? 0) > 0 && (
            <span className="flex flex-wrap items-center gap-1.5">
              Re-runs:
              {lineage?.reruns.map((rerunRow) => (
                <Link
                  key={rerunRow.id}
                  href={`/runs/${rerunRow.id}`}
                  className="inline-flex items-center gap-1 text-primary hover:underline"
                  data-testid="rerun-link"
                >
                  <StatusBadge status={rerunRow.status} /> {new Date(rerunRow.startedAt).toLocaleString()}
                </Link>
              ))}
            </span>
          )}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {!readOnly && canRun && trigger !== "single-node" && (
          <div className="flex items-center gap-1.5">
            <Label htmlFor={`rerun-target-${run.id}`} className="font-normal whitespace-nowrap text-muted-foreground">
              Re-run on
            </Label>
            <NativeSelect
              id={`rerun-target-${run.id}`}
              density="sm"
              wrapperClassName="w-36"
              data-testid="rerun-target"
              value={target}
              onChange={(event) => setTarget(event.target.value)}
            >
              {TARGETS.filter((option) => option.value !== "same" || hasVersion).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
            <Button size="sm" variant="primary" data-testid="rerun" disabled={busy} onClick={() => void rerun()}>
              <RotateCcw aria-hidden /> Re-run
            </Button>
          </div>
        )}
        <form className="flex items-center gap-1.5" onSubmit={compare}>
          <Input
            className="h-7 w-48 text-xs"
            aria-label="Run to compare with (id or link)"
            placeholder="Run id or link"
            data-testid="compare-input"
            value={other}
            onChange={(event) => setOther(event.target.value)}
          />
          <Button size="sm" type="submit" data-testid="compare" disabled={!other.trim()}>
            <GitCompare aria-hidden /> Compare
          </Button>
        </form>
        <div className="flex items-center gap-1.5">
          <Button size="sm" asChild>
            <a href={`/api/runs/${run.id}/export?format=json`} download data-testid="export-json">
              <Download aria-hidden /> JSON
            </a>
          </Button>
          <Button size="sm" asChild>
            <a href={`/api/runs/${run.id}/export?format=jsonl`} download data-testid="export-jsonl">
              <Download aria-hidden /> JSONL
            </a>
          </Button>
          <Button size="sm" variant="ghost" data-testid="copy-share-link" onClick={() => void copyShareLink()}>
            <Copy aria-hidden /> Share link
          </Button>
        </div>
      </div>
      {message && (
        <p className="text-xs text-muted-foreground" role="status" data-testid="run-actions-message">
          {message}
        </p>
      )}
    </section>
  );
}
