import type { ComponentProps } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";

/** A multi-line text field. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={cn(fieldClassName, "min-h-20 py-1.5", className)} {...props} />;
}
