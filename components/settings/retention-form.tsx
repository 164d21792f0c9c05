"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { formatRelativeTime } from "@/components/ui/format";
import type { RetentionView } from "@/lib/contracts/retention";
import { sendJson } from "./settings-api";

/** A number field's text → the setting (empty means no limit). */
function limit(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

/**
 * The workspace's run-history retention: max age, max count and the longer keep for annotated
 * runs (empty = no limit), with when the last prune ran and how many rows it removed.
 */
export function RetentionForm({ retention, canEdit }: { retention: RetentionView; canEdit: boolean }) {
  const router = useRouter();
  const [maxAgeDays, setMaxAgeDays] = useState(retention.maxAgeDays?.toString() ?? "");
  const [maxCount, setMaxCount] = useState(retention.maxCount?.toString() ?? "");
  const [keepAnnotatedDays, setKeepAnnotatedDays] = useState(retention.keepAnnotatedDays?.toString() ?? "");
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await sendJson<RetentionView>("/api/retention", "PUT", {
      maxAgeDays: limit(maxAgeDays),
      maxCount: limit(maxCount),
      keepAnnotatedDays: limit(keepAnnotatedDays),
    });
    if (!result.ok) {
      const issue = result.issues[0];
      setMessage(issue ? `${issue.path}: ${issue.message}` : result.message);
      return;
    }
    setMessage("Retention saved.");
    router.refresh();
  };

  return (
    <div data-testid="retention">
      <header className="page-header">
        <h1>Run retention</h1>
      </header>
      <form className="stack settings-form" onSubmit={submit} data-testid="retention-form">
        <p className="muted">
          Ended runs beyond these limits are deleted in the background, with their node runs, events and search entries.
          Leave a field empty for no limit. Runs still going are never deleted.
        </p>
        <label>
          Keep runs for (days)
          <input
            className="input"
            type="number"
            min={1}
            data-testid="retention-max-age"
            value={maxAgeDays}
            disabled={!canEdit}
            onChange={(event) => setMaxAgeDays(event.target.value)}
          />
        </label>
        <label>
          Keep at most (runs)
          <input
            className="input"
            type="number"
            min={1}
            data-testid="retention-max-count"
            value={maxCount}
            disabled={!canEdit}
            onChange={(event) => setMaxCount(event.target.value)}
          />
        </label>
        <label>
          Keep annotated runs for (days)
          <input
            className="input"
            type="number"
            min={1}
            data-testid="retention-keep-annotated"
            value={keepAnnotatedDays}
            disabled={!canEdit}
            onChange={(event) => setKeepAnnotatedDays(event.target.value)}
          />
        </label>
        {canEdit && (
          <button type="submit" className="button button-primary" data-testid="retention-save">
            Save
          </button>
        )}
        {message && (
          <p className="muted" role="status" data-testid="retention-message">
            {message}
          </p>
        )}
        <p className="muted" data-testid="retention-last-pruned">
          {retention.lastPrunedAt
            ? `Last pruned ${formatRelativeTime(retention.lastPrunedAt)}: ${retention.lastPrunedRows} rows removed.`
            : "Not pruned yet."}
        </p>
      </form>
    </div>
  );
}
