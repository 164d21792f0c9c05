"use client";

import type { VariantProps } from "class-variance-authority";
import type { ReactNode } from "react";
import { buttonVariants } from "./button";
import { cn } from "./cn";

/**
 * A button that opens the file picker: a label styled as a {@link Button} around a visually
 * hidden file input, so Tab reaches the input and the label shows its focus ring. The input is
 * cleared after each pick, so picking the same file again fires again.
 */
export function FileButton({
  children,
  accept,
  onFile,
  testId,
  variant = "outline",
  size = "md",
  className,
}: {
  children: ReactNode;
  accept?: string;
  onFile: (file: File) => void;
  /** `data-testid` of the input (tests call `setInputFiles` on it). */
  testId?: string;
  className?: string;
} & VariantProps<typeof buttonVariants>) {
  return (
    <label
      className={cn(
        buttonVariants({ variant, size }),
        "cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/60 has-[:focus-visible]:ring-offset-1 has-[:focus-visible]:ring-offset-background",
        className,
      )}
    >
      {children}
      <input
        type="file"
        className="sr-only"
        accept={accept}
        data-testid={testId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
