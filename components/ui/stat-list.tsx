import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * Label and value pairs as a description list: `rows` puts each label beside its value (a node
 * run's latency, tokens, cost), `tiles` puts the label above the value in a wrapping grid (a
 * run's header; give the columns with `className`, e.g. `grid-cols-2 lg:grid-cols-4`).
 */
export function StatList({
  layout = "rows",
  className,
  ...props
}: ComponentProps<"dl"> & { layout?: "rows" | "tiles" }) {
  return (
    <dl
      data-slot="stat-list"
      data-layout={layout}
      className={cn(
        "m-0 grid text-sm",
        layout === "rows"
          ? "grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 [&>div]:contents"
          : "gap-x-6 gap-y-2 [&>div]:flex [&>div]:min-w-0 [&>div]:flex-col [&>div]:gap-0.5",
        className,
      )}
      {...props}
    />
  );
}

/** One pair of a {@link StatList}; the `dd` gets the remaining props (test ids, titles). */
export function Stat({ label, className, ...props }: ComponentProps<"dd"> & { label: ReactNode }) {
  return (
    <div data-slot="stat">
      <dt className="text-xs leading-5 text-muted-foreground">{label}</dt>
      <dd className={cn("m-0 min-w-0 tabular-nums", className)} {...props} />
    </div>
  );
}
