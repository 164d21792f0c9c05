import { cva, type VariantProps } from "class-variance-authority";
import { CircleAlertIcon, CircleCheckIcon, InfoIcon, TriangleAlertIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/** Alert tones on the semantic colours: tinted border and surface, text stays the foreground colour. */
export const alertVariants = cva(
  "flex w-full items-start gap-2.5 rounded-lg border px-3 py-2.5 text-sm text-foreground [&_ul]:my-1 [&_ul]:pl-5 [&_p]:my-0",
  {
    variants: {
      tone: {
        info: "border-info/30 bg-info/8",
        success: "border-success/30 bg-success/8",
        warning: "border-warning/40 bg-warning/8",
        destructive: "border-destructive/35 bg-destructive/8",
        neutral: "border-border bg-muted/60",
      },
    },
    defaultVariants: { tone: "info" },
  },
);

const ICONS = {
  info: { icon: InfoIcon, className: "text-info" },
  success: { icon: CircleCheckIcon, className: "text-success" },
  warning: { icon: TriangleAlertIcon, className: "text-warning" },
  destructive: { icon: CircleAlertIcon, className: "text-destructive" },
  neutral: { icon: InfoIcon, className: "text-muted-foreground" },
} as const;

/**
 * A message box for a problem, a warning or a notice (shadcn/ui pattern): an icon for its tone,
 * an optional bold `title` and the body. It carries no live-region role of its own: pass
 * `role="alert"` for an error that appears after an action, `role="status"` for a confirmation.
 */
export function Alert({
  className,
  tone,
  title,
  icon = true,
  children,
  ...props
}: Omit<ComponentProps<"div">, "title"> & VariantProps<typeof alertVariants> & { title?: ReactNode; icon?: boolean }) {
  const { icon: Icon, className: iconClassName } = ICONS[tone ?? "info"];
  return (
    <div data-slot="alert" className={cn(alertVariants({ tone }), className)} {...props}>
      {icon && <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", iconClassName)} />}
      {/* Block flow, not a flex column: bare text and inline elements (<b>, <code>) stay on one line. */}
      <div className="min-w-0 flex-1 [&>*:not(:first-child)]:mt-1">
        {title && <p className="m-0 font-semibold">{title}</p>}
        {children}
      </div>
    </div>
  );
}
