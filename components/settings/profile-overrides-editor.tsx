"use client";

import type { ProfileOverride } from "@/lib/db/provider-config";

/** One row being edited: a model id and its overrides (empty fields use the built-in profile). */
export interface ProfileRowDraft {
  /** Model id. */
  model: string;
  /** Overrides. */
  override: ProfileOverride;
}

const FLAGS = [
  ["toolCalls", "Tool calls"],
  ["parallelToolCalls", "Parallel calls"],
  ["stopSequences", "Stop sequences"],
  ["jsonMode", "JSON mode"],
] as const;

const NUMBERS = [
  ["contextWindow", "Context window", "tokens"],
  ["inputPricePerMillion", "Input $/M", "USD"],
  ["outputPricePerMillion", "Output $/M", "USD"],
] as const;

/** Rows to the API's `{ [model]: override }` record (blank model ids dropped). */
export function toProfiles(rows: ProfileRowDraft[]): Record<string, ProfileOverride> {
  return Object.fromEntries(
    rows.filter((row) => row.model.trim() !== "").map((row) => [row.model.trim(), row.override]),
  );
}

/**
 * Per-model capability and price overrides. Each field is "default" unless set: the built-in
 * profile table decides otherwise (unknown models get a conservative profile: no native tools).
 */
export function ProfileOverridesEditor({
  rows,
  onChange,
}: {
  rows: ProfileRowDraft[];
  onChange: (rows: ProfileRowDraft[]) => void;
}) {
  const update = (index: number, patch: Partial<ProfileOverride>, model?: string) =>
    onChange(
      rows.map((row, position) => {
        if (position !== index) return row;
        const override: ProfileOverride = { ...row.override, ...patch };
        for (const key of Object.keys(override) as (keyof ProfileOverride)[])
          if (override[key] === undefined) delete override[key];
        return { model: model ?? row.model, override };
      }),
    );
  return (
    <div className="field" data-testid="profile-overrides">
      <span className="field-label">Model profile overrides</span>
      {rows.length > 0 && (
        <table className="table [&_input.input]:px-1.5 [&_input.input]:py-0.5 [&_input[type=number]]:min-w-[84px] [&_select.input]:min-w-[78px] [&_select.input]:px-1 [&_select.input]:py-0.5 [&_td]:!px-1.5 [&_td]:!py-1 [&_td:first-child_input.input]:min-w-[150px] [&_th]:!px-1.5 [&_th]:!py-1">
          <thead>
            <tr>
              <th>Model</th>
              {FLAGS.map(([, label]) => (
                <th key={label}>{label}</th>
              ))}
              {NUMBERS.map(([, label, unit]) => (
                <th key={label} title={unit}>
                  {label}
                </th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by position while the model id is typed.
              <tr key={index} data-testid="profile-row">
                <td>
                  <input
                    className="input code-input"
                    value={row.model}
                    aria-label="Model id"
                    onChange={(event) => update(index, {}, event.target.value)}
                  />
                </td>
                {FLAGS.map(([key, label]) => (
                  <td key={key}>
                    <select
                      className="input"
                      aria-label={label}
                      value={row.override[key] === undefined ? "" : String(row.override[key])}
                      onChange={(event) =>
                        update(index, { [key]: event.target.value === "" ? undefined : event.target.value === "true" })
                      }
                    >
                      <option value="">default</option>
                      <option value="true">yes</option>
                      <option value="false">no</option>
                    </select>
                  </td>
                ))}
                {NUMBERS.map(([key, label]) => (
                  <td key={key}>
                    <input
                      className="input"
                      type="number"
                      min={0}
                      step="any"
                      aria-label={label}
                      placeholder="default"
                      value={row.override[key] ?? ""}
                      onChange={(event) =>
                        update(index, { [key]: event.target.value === "" ? undefined : Number(event.target.value) })
                      }
                    />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="button-ghost danger"
                    aria-label="Remove override"
                    onClick={() => onChange(rows.filter((_row, position) => position !== index))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="button-small" onClick={() => onChange([...rows, { model: "", override: {} }])}>
        Add override
      </button>
    </div>
  );
}
