"use client";

import type { ComponentProps, ReactNode } from "react";
import { Checkbox } from "./checkbox";
import { cn } from "./cn";

/**
 * A {@link Checkbox} with its label beside it (the label's text wraps under itself, not under the
 * box); clicking the text toggles it. Other props (checked, onCheckedChange, data-testid…) go to the checkbox.
 */
export function CheckboxField({
  id,
  label,
  className,
  ...props
}: Omit<ComponentProps<typeof Checkbox>, "id"> & { id: string; label: ReactNode }) {
  return (
    <div data-slot="checkbox-field" className={cn("flex items-start gap-2 text-sm", className)}>
      <Checkbox id={id} className="mt-0.5" {...props} />
      <label htmlFor={id} className="min-w-0 cursor-pointer">
        {label}
      </label>
    </div>
  );
}
