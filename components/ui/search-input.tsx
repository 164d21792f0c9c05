import { SearchIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { Input } from "./input";

/**
 * A search field: an {@link Input} of type search with a magnifier inside on the left. Give it an
 * `aria-label` (or a label); `wrapperClassName` sizes it (full width unless told otherwise).
 */
export function SearchInput({
  className,
  wrapperClassName,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { wrapperClassName?: string }) {
  return (
    <div data-slot="search-input" className={cn("relative w-full min-w-0", wrapperClassName)}>
      <SearchIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input type="search" className={cn("pl-8", className)} {...props} />
    </div>
  );
}
