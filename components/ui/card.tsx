import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A bordered surface for a group of content. */
export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="card"
      className={cn("rounded-lg border border-border bg-card text-card-foreground shadow-xs", className)}
      {...props}
    />
  );
}

/** Title row of a {@link Card}. */
export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-header" className={cn("flex flex-col gap-1 px-4 pt-4", className)} {...props} />;
}

/** Heading of a {@link Card} (an h2 unless `as` says otherwise via className-only use). */
export function CardTitle({ className, ...props }: ComponentProps<"h2">) {
  return <h2 data-slot="card-title" className={cn("m-0 text-base font-semibold", className)} {...props} />;
}

/** Secondary text under a card's title. */
export function CardDescription({ className, ...props }: ComponentProps<"p">) {
  return <p data-slot="card-description" className={cn("m-0 text-sm text-muted-foreground", className)} {...props} />;
}

/** Body of a {@link Card}. */
export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-content" className={cn("px-4 py-4", className)} {...props} />;
}

/** Action row at the bottom of a {@link Card}. */
export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-footer" className={cn("flex items-center gap-2 px-4 pb-4", className)} {...props} />;
}
