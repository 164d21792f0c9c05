import type { ComponentProps } from "react";
import { cn } from "./cn";

/** The quiet help line under a form control; give it an id and point the control's `aria-describedby` at it. */
export function FieldHint({ className, ...props }: ComponentProps<"p">) {
  return <p data-slot="field-hint" className={cn("m-0 text-xs text-muted-foreground", className)} {...props} />;
}
