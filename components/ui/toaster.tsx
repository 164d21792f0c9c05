"use client";

import { useTheme } from "next-themes";
import { Toaster as Sonner } from "sonner";

/**
 * The app's toast outlet (one, in the root layout), following the theme. Components call
 * `toast.success(...)` / `toast.error(...)` from "sonner" for save and error feedback.
 */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      position="bottom-right"
      closeButton
      toastOptions={{
        classNames: {
          toast: "!bg-popover !text-popover-foreground !border-border !shadow-lg !font-sans",
          description: "!text-muted-foreground",
        },
      }}
    />
  );
}
