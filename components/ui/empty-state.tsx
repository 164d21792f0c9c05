import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * What a list shows when it has nothing to list: a dashed box where the table would be, with an
 * optional icon, an optional bold `title`, a sentence saying what to do (`description`, or the
 * children), and an optional action (a button or a link). Other props (data-testid…) go to the box.
 */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
  children,
  ...props
}: Omit<ComponentProps<"div">, "title"> & {
  icon?: ReactNode;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center justify-center gap-1.5 rounded-lg border border-dashed border-border bg-card/60 px-6 py-8 text-center",
        className,
      )}
      {...props}
    >
      {icon && (
        <div className="mb-1 flex size-9 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
          {icon}
        </div>
      )}
      {title && <p className="m-0 text-sm font-semibold">{title}</p>}
      {(description ?? children) && (
        <div className="m-0 max-w-md text-sm text-muted-foreground">{description ?? children}</div>
      )}
      {action && <div className="mt-2 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}
