import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/**
 * A titled block of the run views (the inspector's Inputs, Outputs, Process data; the run's own
 * inputs and outputs): a small muted heading over its content. One look for every such heading
 * on the run page and in the editor's run panel.
 */
export function RunSection({
  title,
  nested = false,
  className,
  children,
  ...props
}: Omit<ComponentProps<"section">, "title"> & {
  title: ReactNode;
  /** A section inside another (the parts of "Process data"): a smaller, upper-case heading. */
  nested?: boolean;
}) {
  return (
    <section className={cn("flex min-w-0 flex-col gap-1.5", className)} {...props}>
      {nested ? (
        <h5 className="m-0 text-2xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h5>
      ) : (
        <h4 className="m-0 text-xs font-semibold text-muted-foreground">{title}</h4>
      )}
      {children}
    </section>
  );
}
