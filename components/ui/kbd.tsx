import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A key or key combination as a small raised chip (`Ctrl+S`, `?`), e.g. in the shortcuts list. */
export function Kbd({ className, ...props }: ComponentProps<"kbd">) {
  return (
    <kbd
      data-slot="kbd"
      className={cn(
        "inline-flex h-5 min-w-5 items-center justify-center rounded-xs border border-border bg-muted px-1.5 font-mono text-2xs font-medium whitespace-nowrap text-foreground shadow-xs",
        className,
      )}
      {...props}
    />
  );
}
