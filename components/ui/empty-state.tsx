import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * What a list shows when it has nothing to list: an optional icon, a title, a sentence saying
 * what to do, and an optional action (a button or a link). A dashed box where the table would be.
 */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
  ...props
}: Omit<ComponentProps<"div">, "title"> & {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center justify-center gap-1.5 rounded-lg border border-dashed border-border bg-card/60 px-6 py-10 text-center",
        className,
      )}
      {...props}
    >
      {icon && (
        <div className="mb-1 flex size-9 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
          {icon}
        </div>
      )}
      <p className="m-0 text-sm font-semibold">{title}</p>
      {description && <p className="m-0 max-w-md text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-2 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}
