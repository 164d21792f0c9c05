"use client";

import { XIcon } from "lucide-react";
import { Dialog as SheetPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { DialogOverlay } from "./dialog";

/** Root of a sheet: a dialog that slides from a side (narrow screens' panels). */
export const Sheet = SheetPrimitive.Root;
/** Opens a {@link Sheet}. */
export const SheetTrigger = SheetPrimitive.Trigger;
/** The sheet's accessible name. */
export const SheetTitle = SheetPrimitive.Title;

/** The sliding panel. */
export function SheetContent({
  className,
  children,
  side = "right",
  ...props
}: ComponentProps<typeof SheetPrimitive.Content> & { side?: "left" | "right" }) {
  return (
    <SheetPrimitive.Portal>
      <DialogOverlay />
      <SheetPrimitive.Content
        data-slot="sheet-content"
        className={cn(
          "fixed inset-y-0 z-50 flex w-[min(380px,90vw)] flex-col border-border bg-popover text-popover-foreground shadow-lg outline-none data-[state=open]:animate-fade-in",
          side === "right" ? "right-0 border-l" : "left-0 border-r",
          className,
        )}
        {...props}
      >
        {children}
        <SheetPrimitive.Close asChild>
          <Button variant="ghost" size="icon-sm" className="absolute top-2.5 right-2.5" aria-label="Close">
            <XIcon />
          </Button>
        </SheetPrimitive.Close>
      </SheetPrimitive.Content>
    </SheetPrimitive.Portal>
  );
}
