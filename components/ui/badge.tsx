import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Badge tones on the semantic colours. */
export const badgeVariants = cva(
  "inline-flex w-fit shrink-0 items-center gap-1 whitespace-nowrap rounded-full border px-2 py-px text-2xs font-medium [&_svg]:size-3",
  {
    variants: {
      tone: {
        neutral: "border-transparent bg-muted text-muted-foreground",
        primary: "border-transparent bg-primary/12 text-primary",
        success: "border-transparent bg-success/14 text-[color-mix(in_srgb,var(--success)_80%,var(--foreground))]",
        warning: "border-transparent bg-warning/14 text-[color-mix(in_srgb,var(--warning)_80%,var(--foreground))]",
        destructive:
          "border-transparent bg-destructive/14 text-[color-mix(in_srgb,var(--destructive)_80%,var(--foreground))]",
        info: "border-transparent bg-info/14 text-[color-mix(in_srgb,var(--info)_80%,var(--foreground))]",
        outline: "border-border text-foreground",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

/** A small label pill. */
export function Badge({ className, tone, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span data-slot="badge" className={cn(badgeVariants({ tone }), className)} {...props} />;
}
