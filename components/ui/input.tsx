import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Shared look of text-like fields (input, textarea, select trigger). */
export const fieldClassName =
  "w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm text-foreground shadow-xs transition-[border-color,box-shadow] outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20";

/** A text input. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input data-slot="input" type={type} className={cn(fieldClassName, "h-8 py-1", className)} {...props} />;
}
