import type { ComponentProps } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";

/** A file picker on the field look: the browser's "Choose file" button drawn as a small secondary button. */
export function FileInput({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return (
    <input
      data-slot="file-input"
      type="file"
      className={cn(
        fieldClassName,
        "h-auto cursor-pointer py-1 text-muted-foreground file:mr-3 file:cursor-pointer file:rounded-sm file:border-0 file:bg-secondary file:px-2.5 file:py-1 file:text-xs file:font-medium file:text-secondary-foreground hover:file:bg-secondary/70",
        className,
      )}
      {...props}
    />
  );
}
