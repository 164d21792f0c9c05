import { ChevronDownIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";

/**
 * A native `<select>` on the field look (the {@link Select} of select.tsx is a Radix listbox).
 * Use it where the browser's own list is the better control: long option lists, `multiple`, forms
 * that post natively, and places tests drive with `selectOption`. `className` sizes the wrapper
 * (e.g. `w-40`); every other prop (id, value, data-testid, aria-*) goes to the select.
 */
export function NativeSelect({ className, multiple, ...props }: ComponentProps<"select">) {
  return (
    <div data-slot="native-select-wrapper" className={cn("relative w-full min-w-0", className)}>
      <select
        data-slot="native-select"
        multiple={multiple}
        className={cn(
          fieldClassName,
          "appearance-none",
          multiple ? "py-1 [&>option]:rounded-xs [&>option]:px-1 [&>option]:py-0.5" : "h-8 py-1 pr-8",
        )}
        {...props}
      />
      {!multiple && (
        <ChevronDownIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
      )}
    </div>
  );
}
