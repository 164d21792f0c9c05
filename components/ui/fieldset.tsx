import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * A group of controls under one legend (checkbox lists, name/value rows), spaced like a
 * FormField so it sits in a form's column; props (data-testid…) go to the `<fieldset>`.
 */
export function Fieldset({
  legend,
  className,
  children,
  ...props
}: ComponentProps<"fieldset"> & { legend: ReactNode }) {
  return (
    <fieldset
      data-slot="fieldset"
      className={cn("m-0 mb-3 flex min-w-0 flex-col gap-1.5 border-0 p-0", className)}
      {...props}
    >
      <legend className="mb-1.5 p-0 text-xs font-semibold text-foreground">{legend}</legend>
      {children}
    </fieldset>
  );
}
