"use client";

import { PlusIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeleteButton } from "@/components/ui/delete-button";
import { Fieldset } from "@/components/ui/fieldset";
import { Input } from "@/components/ui/input";

/** One row being edited: `stored` means the server holds a value, so an empty field keeps it. */
export interface SecretEntryDraft {
  /** Variable or header name. */
  name: string;
  /** New value; empty keeps the stored one. */
  value: string;
  /** Whether the server already holds a value for this name. */
  stored: boolean;
}

/** Turns drafts into the API's `{ name, value? }` entries (no value = keep the stored one). */
export function toSecretEntries(drafts: SecretEntryDraft[]): { name: string; value?: string }[] {
  return drafts
    .filter((draft) => draft.name.trim() !== "")
    .map((draft) =>
      draft.value === "" && draft.stored
        ? { name: draft.name.trim() }
        : { name: draft.name.trim(), value: draft.value },
    );
}

/**
 * Name/value rows whose values are write-only: stored values are never sent to the browser, so
 * the field shows a placeholder and stays empty unless the user types a replacement.
 */
export function SecretEntriesEditor({
  label,
  entries,
  onChange,
  namePlaceholder,
  testId,
}: {
  label: string;
  entries: SecretEntryDraft[];
  onChange: (entries: SecretEntryDraft[]) => void;
  namePlaceholder: string;
  testId: string;
}) {
  const update = (index: number, patch: Partial<SecretEntryDraft>) =>
    onChange(entries.map((entry, position) => (position === index ? { ...entry, ...patch } : entry)));
  return (
    <Fieldset legend={label} data-testid={testId}>
      {entries.map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their position while being typed.
        <div className="grid grid-cols-[1fr_1.4fr_auto] gap-1.5" key={index}>
          <Input
            className="font-mono text-xs"
            placeholder={namePlaceholder}
            value={entry.name}
            aria-label={`${label} name ${index + 1}`}
            onChange={(event) => update(index, { name: event.target.value, stored: false })}
          />
          <Input
            className="font-mono text-xs"
            type="password"
            autoComplete="off"
            placeholder={entry.stored ? "•••••• stored (leave empty to keep)" : "value"}
            value={entry.value}
            aria-label={`${label} value ${index + 1}`}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <DeleteButton
            icon
            ariaLabel={`Remove ${entry.name || "row"}`}
            onClick={() => onChange(entries.filter((_entry, position) => position !== index))}
          />
        </div>
      ))}
      <Button
        size="sm"
        className="self-start"
        onClick={() => onChange([...entries, { name: "", value: "", stored: false }])}
      >
        <PlusIcon /> Add
      </Button>
    </Fieldset>
  );
}
