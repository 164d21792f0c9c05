import { ChevronDownIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";

/** One choice of a {@link NativeSelect}. */
export interface NativeSelectOption {
  /** The value the select takes when it is chosen. */
  value: string;
  /** What the list shows. */
  label: string;
}

/**
 * The browser's own `<select>` on the field look (shadcn/ui "native select"): for forms and
 * filters with a fixed list, `multiple`, and places where the native list (mobile pickers,
 * `selectOption` in Playwright, form autofill) is wanted rather than the Radix {@link Select}.
 * `className` styles the select; `wrapperClassName` sizes the box around it (full width unless told
 * otherwise, e.g. `w-40`); `density="sm"` is the compact height for toolbars. `options` lists the
 * choices after any `children` (e.g. a leading "Any" option). Every other prop (id, value,
 * data-testid, aria-*, and `size`, the visible rows of a `multiple` list) goes to the select.
 */
export function NativeSelect({
  className,
  wrapperClassName,
  density = "md",
  multiple,
  options,
  children,
  ...props
}: ComponentProps<"select"> & {
  wrapperClassName?: string;
  density?: "sm" | "md";
  options?: readonly NativeSelectOption[];
}) {
  return (
    <div data-slot="native-select-wrapper" className={cn("relative w-full min-w-0", wrapperClassName)}>
      <select
        data-slot="native-select"
        multiple={multiple}
        className={cn(
          fieldClassName,
          "appearance-none",
          multiple
            ? "py-1 [&>option]:rounded-xs [&>option]:px-1 [&>option]:py-0.5"
            : cn("truncate pr-8", density === "sm" ? "h-7 py-0 text-xs" : "h-8 py-1"),
          className,
        )}
        {...props}
      >
        {children}
        {options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {!multiple && (
        <ChevronDownIcon
          aria-hidden
          className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
      )}
    </div>
  );
}
