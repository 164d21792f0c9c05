import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A determinate progress bar: a native `<progress>` (role progressbar, `value`/`max` readable by
 * tests and assistive tech) drawn on the tokens in every engine. Give it an `aria-label`.
 */
export function Progress({ className, ...props }: ComponentProps<"progress">) {
  return (
    <progress
      data-slot="progress"
      className={cn(
        "block h-2 w-full appearance-none overflow-hidden rounded-full border-0 bg-muted text-primary",
        "[&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-primary [&::-webkit-progress-value]:transition-[width]",
        "[&::-moz-progress-bar]:rounded-full [&::-moz-progress-bar]:bg-primary",
        className,
      )}
      {...props}
    />
  );
}
