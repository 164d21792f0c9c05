import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * Preformatted text (a JSON value, an example request, pinned outputs) in a bordered block on the
 * muted surface; long lines wrap. Give it a `max-h-*` to make it scroll: it is focusable, so a
 * keyboard user can scroll it too (axe: scrollable-region-focusable).
 */
export function CodeBlock({ className, tabIndex = 0, ...props }: ComponentProps<"pre">) {
  return (
    <pre
      data-slot="code-block"
      tabIndex={tabIndex}
      className={cn(
        "m-0 overflow-auto rounded-md border border-border bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-words outline-none focus-visible:ring-2 focus-visible:ring-ring/40",
        className,
      )}
      {...props}
    />
  );
}
