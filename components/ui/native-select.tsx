import { ChevronDownIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";

/**
 * The browser's own `<select>` on the field look (shadcn/ui "native select"): for forms and
 * filters with a short, fixed list, where the native list (mobile pickers, `selectOption` in
 * Playwright, form autofill) is wanted rather than the Radix {@link Select}. `className` styles
 * the select; `wrapperClassName` sizes the box around it (full width unless told otherwise).
 */
export function NativeSelect({
  className,
  wrapperClassName,
  size = "md",
  ...props
}: Omit<ComponentProps<"select">, "size"> & { wrapperClassName?: string; size?: "sm" | "md" }) {
  return (
    <div data-slot="native-select-wrapper" className={cn("relative w-full min-w-0", wrapperClassName)}>
      <select
        data-slot="native-select"
        className={cn(
          fieldClassName,
          "appearance-none truncate pr-8",
          size === "sm" ? "h-7 py-0 text-xs" : "h-8 py-1",
          className,
        )}
        {...props}
      />
      <ChevronDownIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
