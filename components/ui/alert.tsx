import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Alert tones on the semantic colours: a tinted surface, a matching border, readable text. */
export const alertVariants = cva("rounded-md border px-3 py-2 text-sm text-foreground [&_p]:m-0", {
  variants: {
    tone: {
      info: "border-primary/25 bg-primary/8",
      success: "border-success/35 bg-success/10",
      warning: "border-warning/35 bg-warning/8",
      destructive: "border-destructive/35 bg-destructive/8",
    },
  },
  defaultVariants: { tone: "info" },
});

/**
 * A block message in the page's flow: a server's refusal, a check's outcome, a one-time secret, a
 * mode statement. The role is the caller's: `alert` for errors that appear after an action,
 * `status` for confirmations, none for static explanations.
 */
export function Alert({ className, tone, ...props }: ComponentProps<"div"> & VariantProps<typeof alertVariants>) {
  return <div data-slot="alert" className={cn(alertVariants({ tone }), className)} {...props} />;
}
