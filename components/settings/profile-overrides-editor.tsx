"use client";

import { PlusIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeleteButton } from "@/components/ui/delete-button";
import { Fieldset } from "@/components/ui/fieldset";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";

import type { ProfileOverride } from "@/lib/contracts/provider-config";

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

/** Compact cells: nine columns of controls fit the wide dialog without scrolling sideways. */
const HEAD = "px-1 leading-tight whitespace-normal first:pl-2 last:pr-2";
const CELL = "px-1 py-1 first:pl-2 last:pr-2";

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
    <Fieldset legend="Model profile overrides" data-testid="profile-overrides">
      {rows.length > 0 && (
        <Table className="text-xs">
          <TableHeadRow
            columns={[
              { label: "Model", className: HEAD },
              ...FLAGS.map(([, label]) => ({ label, className: HEAD })),
              ...NUMBERS.map(([, label, unit]) => ({ label, className: HEAD, title: unit })),
              { label: <span className="sr-only">Remove</span>, className: HEAD },
            ]}
          />
          <TableBody>
            {rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by position while the model id is typed.
              <TableRow key={index} data-testid="profile-row">
                <TableCell className={CELL}>
                  <Input
                    className="min-w-28 px-1.5 font-mono text-xs"
                    value={row.model}
                    aria-label="Model id"
                    onChange={(event) => update(index, {}, event.target.value)}
                  />
                </TableCell>
                {FLAGS.map(([key, label]) => (
                  <TableCell key={key} className={CELL}>
                    <NativeSelect
                      wrapperClassName="min-w-23"
                      aria-label={label}
                      value={row.override[key] === undefined ? "" : String(row.override[key])}
                      onChange={(event) =>
                        update(index, { [key]: event.target.value === "" ? undefined : event.target.value === "true" })
                      }
                    >
                      <option value="">default</option>
                      <option value="true">yes</option>
                      <option value="false">no</option>
                    </NativeSelect>
                  </TableCell>
                ))}
                {NUMBERS.map(([key, label]) => (
                  <TableCell key={key} className={CELL}>
                    <Input
                      className="min-w-18 px-1.5"
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
                  </TableCell>
                ))}
                <TableCell className={CELL}>
                  <DeleteButton
                    icon
                    size="sm"
                    ariaLabel="Remove override"
                    onClick={() => onChange(rows.filter((_row, position) => position !== index))}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Button size="sm" className="self-start" onClick={() => onChange([...rows, { model: "", override: {} }])}>
        <PlusIcon /> Add override
      </Button>
    </Fieldset>
  );
}
