"use client";

import { Textarea } from "@/components/ui/textarea";
import type { ControlProps } from "../schema-form";

/** Fallback: edit as JSON, applied when it parses. */
export function JsonField({
  control,
  testId,
  value,
  onChange,
}: {
  control: ControlProps;
  testId: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  return (
    <Textarea
      {...control}
      className="min-h-24 font-mono text-xs"
      rows={4}
      data-testid={testId}
      defaultValue={value === undefined ? "" : JSON.stringify(value, null, 2)}
      onBlur={(event) => {
        const text = event.target.value.trim();
        if (text === "") {
          onChange(undefined);
          return;
        }
        try {
          onChange(JSON.parse(text));
        } catch {
          event.target.setCustomValidity("Invalid JSON");
          event.target.reportValidity();
        }
      }}
      onInput={(event) => event.currentTarget.setCustomValidity("")}
    />
  );
}
