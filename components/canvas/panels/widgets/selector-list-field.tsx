"use client";

import { PlusIcon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { VariableOption } from "../upstream-variables";
import { VariablePicker } from "./variable-picker";

/** Several selectors (e.g. synthesizer inputs). */
export function SelectorListField({
  value,
  onChange,
  variables,
}: {
  value: string[][];
  onChange: (value: unknown) => void;
  /** Upstream variables to pick from. */
  variables: VariableOption[];
}) {
  return (
    <div className="flex flex-col items-start gap-1">
      {value.map((selector, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items are edited in place
        <div key={index} className="flex w-full items-center gap-1">
          <VariablePicker
            value={selector}
            variables={variables}
            ariaLabel={`Variable ${index + 1}`}
            onChange={(next) => onChange(value.map((entry, position) => (position === index ? next : entry)))}
          />
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove variable ${index + 1}`}
            onClick={() => onChange(value.filter((_, position) => position !== index))}
          >
            <XIcon />
          </Button>
        </div>
      ))}
      <Button size="sm" onClick={() => onChange([...value, []])}>
        <PlusIcon /> Add variable
      </Button>
    </div>
  );
}
