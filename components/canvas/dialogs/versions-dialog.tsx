"use client";

import { EyeIcon, HistoryIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { formatRelativeTime } from "@/components/ui/format";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { WorkflowDocument } from "@/lib/workflow/document";
import type { WorkflowDiff } from "@/lib/workflow/version-diff";
import type { EditorStore } from "../store/editor-store";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import { VersionDiffView } from "./version-diff-view";

/** A version as `GET /api/workflows/:id/versions` lists it (dates as JSON strings). */
interface VersionRow {
  version: number;
  note: string;
  createdAt: string;
  publishedBy: { id: string; name: string; email: string } | null;
}

interface VersionList {
  versions: VersionRow[];
  servedVersion: number | null;
  latestVersion: number | null;
}

async function readError(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `The server answered ${response.status}.`;
}

/**
 * Loads version `version` and puts it into the draft as ONE undoable step (Ctrl+Z brings the
 * previous draft back); autosave then stores it like any edit.
 * @returns an error message, or null when restored
 */
export async function restoreVersionIntoDraft(store: EditorStore, version: number): Promise<string | null> {
  const { workflowId } = store.getState();
  try {
    const response = await fetch(`/api/workflows/${workflowId}/versions/${version}`);
    if (!response.ok) return readError(response);
    const { version: detail } = (await response.json()) as { version: { document: WorkflowDocument } };
    store.getState().replaceDocument(detail.document);
    return null;
  } catch {
    return "Could not reach the server.";
  }
}

/** Which side of a comparison: a version number as text, or `draft`. */
type Side = string;

/** Versions: list (note, publisher, when), view read-only, compare, restore into the draft, choose the served one. */
export function VersionsDialog() {
  const store = useEditorStoreApi();
  const router = useRouter();
  const open = useEditorStore((state) => state.dialog === "versions");
  const workflowId = useEditorStore((state) => state.workflowId);
  const viewingVersion = useEditorStore((state) => state.viewingVersion);
  const canEdit = useEditorStore((state) => state.canEditDraft);
  const [list, setList] = useState<VersionList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [from, setFrom] = useState<Side>("");
  const [to, setTo] = useState<Side>("");
  const [comparison, setComparison] = useState<{ diff: WorkflowDiff; titles: Record<string, string> } | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const response = await fetch(`/api/workflows/${workflowId}/versions`);
      if (!response.ok) {
        setError(await readError(response));
        return;
      }
      const loaded = (await response.json()) as VersionList;
      setList(loaded);
      // Default comparison: the previous version against the newest.
      const [newest, previous] = loaded.versions;
      setTo(newest ? String(newest.version) : "draft");
      setFrom(previous ? String(previous.version) : newest ? String(newest.version) : "draft");
    } catch {
      setError("Could not reach the server.");
    }
  }, [workflowId]);

  // Loaded on every opening, so a version published meanwhile is listed.
  useEffect(() => {
    if (open) {
      setComparison(null);
      void load();
    }
  }, [open, load]);

  const close = () => store.getState().setDialog("none");

  const compare = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(
        `/api/workflows/${workflowId}/versions/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
      if (!response.ok) setError(await readError(response));
      else setComparison((await response.json()) as { diff: WorkflowDiff; titles: Record<string, string> });
    } catch {
      setError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  };

  const serve = async (value: string) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/workflows/${workflowId}/served-version`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: value === "latest" ? null : Number(value) }),
      });
      if (!response.ok) setError(await readError(response));
      else await load();
    } catch {
      setError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  };

  const restore = async (version: number) => {
    if (viewingVersion !== null) {
      // The read-only view holds the version, not the draft: open the draft, which restores it there.
      router.push(`/workflows/${workflowId}?restore=${version}`);
      return;
    }
    setBusy(true);
    const failed = await restoreVersionIntoDraft(store, version);
    setBusy(false);
    if (failed) setError(failed);
    else close();
  };

  const served = list ? (list.servedVersion ?? list.latestVersion) : null;
  const sides = [
    ...(list?.versions.map((row) => ({ value: String(row.version), label: `v${row.version}` })) ?? []),
    { value: "draft", label: "Current draft" },
  ];

  return (
    <Dialog open={open} title="Versions" onClose={close} testId="versions-dialog" wide>
      {error && (
        <Alert tone="destructive" role="alert" className="mb-3" data-testid="versions-error">
          <p>{error}</p>
        </Alert>
      )}
      {!list && !error && <p className="m-0 text-sm text-muted-foreground">Loading…</p>}
      {list && list.versions.length === 0 && (
        <EmptyState
          icon={<HistoryIcon />}
          title="Nothing published yet"
          description="Publish the draft to create version 1."
          data-testid="versions-empty"
        />
      )}
      {list && list.versions.length > 0 && (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex w-48 flex-col gap-1.5">
              <Label htmlFor="served-version">The endpoint serves</Label>
              <NativeSelect
                id="served-version"
                data-testid="served-version-select"
                value={list.servedVersion === null ? "latest" : String(list.servedVersion)}
                disabled={!canEdit || busy}
                onChange={(event) => void serve(event.target.value)}
              >
                <option value="latest">Latest (v{list.latestVersion})</option>
                {list.versions.map((row) => (
                  <option key={row.version} value={String(row.version)}>
                    Pinned: v{row.version}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <p className="m-0 min-w-0 flex-1 basis-64 text-sm text-muted-foreground">
              A call may still name a version: <code>"version": 2</code> in the run body, or <code>slug@2</code> as the
              chat model.
            </p>
          </div>
          <ul
            className="mt-3 flex flex-col divide-y divide-border rounded-md border border-border"
            data-testid="versions-list"
          >
            {list.versions.map((row) => (
              <li
                key={row.version}
                className="flex items-center gap-3 px-3 py-2"
                data-testid="version-row"
                data-version={row.version}
              >
                <b className="w-10 shrink-0 tabular-nums">v{row.version}</b>
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className={row.note ? "truncate" : "truncate text-muted-foreground"} data-testid="version-note">
                    {row.note || "No note"}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {row.publishedBy ? row.publishedBy.name || row.publishedBy.email : "Unknown publisher"} ·{" "}
                    <time dateTime={row.createdAt} title={new Date(row.createdAt).toLocaleString()}>
                      {formatRelativeTime(row.createdAt)}
                    </time>
                  </span>
                </div>
                {served === row.version && (
                  <Badge tone="success" data-testid="version-served">
                    {list.servedVersion === null ? "Serving (latest)" : "Serving (pinned)"}
                  </Badge>
                )}
                {viewingVersion === row.version ? (
                  <Badge tone="outline">Viewing</Badge>
                ) : (
                  <Button variant="ghost" size="sm" asChild>
                    <Link
                      href={`/workflows/${workflowId}?version=${row.version}`}
                      data-testid="version-view"
                      aria-label={`View version ${row.version} read-only`}
                      onClick={close}
                    >
                      <EyeIcon aria-hidden="true" /> View
                    </Link>
                  </Button>
                )}
                {canEdit && (
                  <Button
                    variant="outline"
                    size="sm"
                    data-testid="version-restore"
                    aria-label={`Restore version ${row.version} into the draft`}
                    disabled={busy}
                    onClick={() => void restore(row.version)}
                  >
                    <HistoryIcon aria-hidden="true" /> Restore
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <fieldset
            className="m-0 mt-4 flex min-w-0 flex-wrap items-end gap-3 border-0 p-0"
            data-testid="versions-compare"
          >
            <legend className="mb-1.5 p-0 text-xs font-semibold text-foreground">Compare</legend>
            <SideSelect id="diff-from" label="From" sides={sides} value={from} onChange={setFrom} />
            <SideSelect id="diff-to" label="To" sides={sides} value={to} onChange={setTo} />
            <Button variant="secondary" data-testid="diff-compare" disabled={busy} onClick={() => void compare()}>
              Compare
            </Button>
          </fieldset>
          {comparison && <VersionDiffView diff={comparison.diff} titles={comparison.titles} />}
        </>
      )}
    </Dialog>
  );
}

/** One side of the comparison (a version or the draft); `id` is also the select's testid. */
function SideSelect({
  id,
  label,
  sides,
  value,
  onChange,
}: {
  id: string;
  label: string;
  sides: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex w-40 flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        data-testid={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        options={sides}
      />
    </div>
  );
}
