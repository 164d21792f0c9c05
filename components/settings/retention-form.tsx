"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { formatRelativeTime } from "@/components/ui/format";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page";
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

  /** One limit: a number field (empty means no limit); its id is also its test id. */
  const limitField = (id: string, label: string, value: string, onChange: (value: string) => void) => (
    <FormField id={id} label={label} errorTestId={`${id}-error`}>
      <Input
        id={id}
        className="w-32"
        type="number"
        min={1}
        placeholder="no limit"
        data-testid={id}
        value={value}
        disabled={!canEdit}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  );

  return (
    <div data-testid="retention" className="flex flex-col gap-4">
      <PageHeader
        title="Run retention"
        description="Ended runs beyond these limits are deleted in the background, with their node runs, events and search entries. Leave a field empty for no limit. Runs still going are never deleted."
      />
      <Card>
        <form onSubmit={submit} data-testid="retention-form">
          <CardContent className="grid gap-x-6 pb-1 sm:grid-cols-3">
            {limitField("retention-max-age", "Keep runs for (days)", maxAgeDays, setMaxAgeDays)}
            {limitField("retention-max-count", "Keep at most (runs)", maxCount, setMaxCount)}
            {limitField(
              "retention-keep-annotated",
              "Keep annotated runs for (days)",
              keepAnnotatedDays,
              setKeepAnnotatedDays,
            )}
          </CardContent>
          <CardFooter className="flex-wrap">
            {canEdit && (
              <Button type="submit" variant="primary" data-testid="retention-save">
                Save
              </Button>
            )}
            {message && (
              <p className="m-0 text-sm text-muted-foreground" role="status" data-testid="retention-message">
                {message}
              </p>
            )}
          </CardFooter>
        </form>
      </Card>
      <p className="m-0 text-sm text-muted-foreground" data-testid="retention-last-pruned">
        {retention.lastPrunedAt
          ? `Last pruned ${formatRelativeTime(retention.lastPrunedAt)}: ${retention.lastPrunedRows} rows removed.`
          : "Not pruned yet."}
      </p>
    </div>
  );
}
