"use client";

import { Popover as PopoverPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Root of a popover (non-modal floating panel). */
export const Popover = PopoverPrimitive.Root;
/** The element that toggles the popover. */
export const PopoverTrigger = PopoverPrimitive.Trigger;
/** An element the popover is positioned against, instead of the trigger. */
export const PopoverAnchor = PopoverPrimitive.Anchor;

/** The floating panel. */
export function PopoverContent({
  className,
  align = "center",
  sideOffset = 6,
  ...props
}: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        data-slot="popover-content"
        align={align}
        sideOffset={sideOffset}
        className={cn(
          "z-50 w-72 rounded-lg border border-border bg-popover p-3 text-popover-foreground shadow-lg outline-none data-[state=open]:animate-pop-in",
          className,
        )}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
