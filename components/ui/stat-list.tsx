import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/** How a {@link StatList} lays out its figures. */
const LAYOUTS = {
  /** Each label beside its value (a node run's latency, tokens, cost). */
  rows: "grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 [&>div]:contents",
  /** Label above value in a wrapping grid (a run's header; give the columns with `className`). */
  tiles: "gap-x-6 gap-y-2 [&>div]:flex [&>div]:min-w-0 [&>div]:flex-col [&>div]:gap-0.5",
  /** Each figure in its own box, as many columns as fit (an evaluation's totals). */
  cards:
    "grid-cols-[repeat(auto-fill,minmax(140px,1fr))] gap-2 [&>div]:flex [&>div]:min-w-0 [&>div]:flex-col [&>div]:gap-0.5 [&>div]:rounded-lg [&>div]:border [&>div]:border-border [&>div]:bg-card [&>div]:px-3 [&>div]:py-2.5 [&_dd]:text-base [&_dd]:font-semibold",
} as const;

/** Label and value pairs as a description list, laid out as `rows`, `tiles` or `cards`. */
export function StatList({
  layout = "rows",
  className,
  ...props
}: ComponentProps<"dl"> & { layout?: keyof typeof LAYOUTS }) {
  return (
    <dl
      data-slot="stat-list"
      data-layout={layout}
      className={cn("m-0 grid text-sm", LAYOUTS[layout], className)}
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
