"use client";

import { ScrollArea as ScrollAreaPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A scrolling region with thin themed scrollbars. The viewport is focusable so keyboard users can
 * scroll it (axe: scrollable-region-focusable); `viewportTestId` names it for tests. Radix wraps
 * the content in a `display: table` div, which defeats `truncate`; it is made a block here.
 */
export function ScrollArea({
  className,
  children,
  viewportTestId,
  viewportLabel,
  ...props
}: ComponentProps<typeof ScrollAreaPrimitive.Root> & { viewportTestId?: string; viewportLabel?: string }) {
  return (
    <ScrollAreaPrimitive.Root data-slot="scroll-area" className={cn("relative overflow-hidden", className)} {...props}>
      <ScrollAreaPrimitive.Viewport
        data-slot="scroll-area-viewport"
        data-testid={viewportTestId}
        aria-label={viewportLabel}
        role={viewportLabel ? "region" : undefined}
        tabIndex={0}
        className="size-full rounded-[inherit] outline-none [&>div]:!block focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:ring-inset"
      >
        {children}
      </ScrollAreaPrimitive.Viewport>
      <ScrollBar />
      <ScrollBar orientation="horizontal" />
      <ScrollAreaPrimitive.Corner />
    </ScrollAreaPrimitive.Root>
  );
}

/** One scrollbar of a {@link ScrollArea}. */
export function ScrollBar({
  className,
  orientation = "vertical",
  ...props
}: ComponentProps<typeof ScrollAreaPrimitive.ScrollAreaScrollbar>) {
  return (
    <ScrollAreaPrimitive.ScrollAreaScrollbar
      data-slot="scroll-area-scrollbar"
      orientation={orientation}
      className={cn(
        "flex touch-none p-px transition-colors select-none",
        orientation === "vertical" && "h-full w-2 border-l border-l-transparent",
        orientation === "horizontal" && "h-2 flex-col border-t border-t-transparent",
        className,
      )}
      {...props}
    >
      <ScrollAreaPrimitive.ScrollAreaThumb className="relative flex-1 rounded-full bg-border hover:bg-muted-foreground/40" />
    </ScrollAreaPrimitive.ScrollAreaScrollbar>
  );
}
