"use client";

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
    <div className="field" data-testid={testId}>
      <span className="field-label">{label}</span>
      {entries.map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their position while being typed.
        <div className="mb-1 grid grid-cols-[1fr_1.4fr_auto] gap-1" key={index}>
          <input
            className="input code-input"
            placeholder={namePlaceholder}
            value={entry.name}
            aria-label={`${label} name ${index + 1}`}
            onChange={(event) => update(index, { name: event.target.value, stored: false })}
          />
          <input
            className="input code-input"
            type="password"
            autoComplete="off"
            placeholder={entry.stored ? "•••••• stored (leave empty to keep)" : "value"}
            value={entry.value}
            aria-label={`${label} value ${index + 1}`}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <button
            type="button"
            className="button-ghost danger"
            aria-label={`Remove ${entry.name || "row"}`}
            onClick={() => onChange(entries.filter((_entry, position) => position !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button-small"
        onClick={() => onChange([...entries, { name: "", value: "", stored: false }])}
      >
        Add
      </button>
    </div>
  );
}
