import type { ComponentProps, ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./card";
import { cn } from "./cn";

/**
 * A titled section of a page on a {@link Card}: heading (an h2 with `titleId`, which also names the
 * region), optional description and actions on the right, then the content (none: a header-only
 * card). Other props (data-testid…) go to the card.
 */
export function SectionCard({
  title,
  titleId,
  description,
  actions,
  contentClassName,
  children,
  ...props
}: Omit<ComponentProps<"div">, "title"> & {
  title: ReactNode;
  /** Set it to make the card a region named by its title. */
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  contentClassName?: string;
}) {
  const hasContent = children !== null && children !== undefined && children !== false;
  return (
    <Card role={titleId ? "region" : undefined} aria-labelledby={titleId} {...props}>
      <CardHeader className={cn("flex-row flex-wrap items-start justify-between gap-3", !hasContent && "pb-4")}>
        <div className="flex min-w-0 flex-col gap-1">
          <CardTitle id={titleId} className="flex flex-wrap items-center gap-2">
            {title}
          </CardTitle>
          {description && <CardDescription className="wrap-anywhere">{description}</CardDescription>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-1">{actions}</div>}
      </CardHeader>
      {hasContent && <CardContent className={contentClassName}>{children}</CardContent>}
    </Card>
  );
}
