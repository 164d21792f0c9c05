import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/** A list of figures as label/value pairs (a `<dl>`), in as many columns as fit. */
export function StatList({ className, ...props }: ComponentProps<"dl">) {
  return (
    <dl
      data-slot="stat-list"
      className={cn("m-0 grid grid-cols-[repeat(auto-fill,minmax(140px,1fr))] gap-2", className)}
      {...props}
    />
  );
}

/** One figure of a {@link StatList}: a small muted label over the value; props go to the value (`<dd>`). */
export function Stat({ label, className, ...props }: ComponentProps<"dd"> & { label: ReactNode }) {
  return (
    <div data-slot="stat" className="flex min-w-0 flex-col gap-0.5 rounded-lg border border-border bg-card px-3 py-2.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn("m-0 text-base font-semibold tabular-nums", className)} {...props} />
    </div>
  );
}
