"use client";

import { Label as LabelPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A form label. */
export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn(
        "flex items-center gap-1.5 text-xs font-semibold text-foreground select-none peer-disabled:opacity-50",
        className,
      )}
      {...props}
    />
  );
}
