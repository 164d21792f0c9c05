import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * What a list shows when it has nothing yet: a dashed box with a short sentence (and optionally
 * an icon and an action). Props (data-testid…) go to the box.
 */
export function EmptyState({
  icon: Icon,
  action,
  className,
  children,
  ...props
}: ComponentProps<"div"> & { icon?: LucideIcon; action?: ReactNode }) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground",
        className,
      )}
      {...props}
    >
      {Icon && <Icon className="size-5" aria-hidden="true" />}
      <div>{children}</div>
      {action}
    </div>
  );
}
