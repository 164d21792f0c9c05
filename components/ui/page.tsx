import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/** The frame of an app page: centred, padded, `wide` for tables with many columns. */
export function Page({ className, wide = false, ...props }: ComponentProps<"main"> & { wide?: boolean }) {
  return (
    <main
      data-slot="page"
      className={cn("mx-auto flex w-full flex-col gap-4 px-6 py-6", wide ? "max-w-[1400px]" : "max-w-6xl", className)}
      {...props}
    />
  );
}

/** A page's title row: the h1 (and an optional description) on the left, actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
  className,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div data-slot="page-header" className={cn("flex flex-wrap items-start justify-between gap-3", className)}>
      <div className="flex min-w-0 flex-col gap-1">
        <h1 className="m-0 text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="m-0 text-sm text-muted-foreground">{description}</p>}
        {children}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
