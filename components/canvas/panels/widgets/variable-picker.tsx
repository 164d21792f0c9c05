"use client";

import { NativeSelect } from "@/components/ui/native-select";
import type { VariableOption } from "../upstream-variables";

/** Picks one upstream output as a selector (`["nodeId", "field"]`); shows each output's type. */
export function VariablePicker({
  id,
  value,
  onChange,
  variables,
  testId,
  ariaLabel,
}: {
  id?: string;
  value: string[];
  onChange: (value: string[]) => void;
  variables: VariableOption[];
  testId?: string;
  /** The accessible name when no label points at `id` (an entry of a list of selectors). */
  ariaLabel?: string;
}) {
  const current = value.join(".");
  const known = variables.some((option) => option.reference === current);
  return (
    <NativeSelect
      id={id}
      value={current}
      aria-label={ariaLabel}
      data-testid={testId}
      onChange={(event) => {
        const option = variables.find((candidate) => candidate.reference === event.target.value);
        onChange(option ? option.selector : []);
      }}
    >
      <option value="">— choose a variable —</option>
      {!known && current !== "" && <option value={current}>{current} (not upstream)</option>}
      {variables.map((option) => (
        <option key={option.reference} value={option.reference}>
          {option.nodeTitle} › {option.reference} ({option.type})
        </option>
      ))}
    </NativeSelect>
  );
}
