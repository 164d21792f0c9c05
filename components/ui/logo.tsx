import { cn } from "./cn";

/**
 * The Trellis mark (same drawing as app/icon.svg, the favicon, and public/trellis-icon.svg / trellis-logo.svg), inline so it
 * needs no request and follows the theme's primary colour.
 */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" fill="none" aria-hidden="true" className={cn("size-6 shrink-0", className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M10 9.5h12M16 9.5v13M10 16h5.2M16.8 16H22M10 22.5h12"
        className="stroke-primary-foreground/60"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
      <circle cx="10" cy="9.5" r="2.6" className="fill-primary-foreground" />
      <circle cx="22" cy="16" r="2.6" className="fill-primary-foreground" />
      <circle cx="16" cy="22.5" r="2.6" className="fill-primary-foreground" />
    </svg>
  );
}

/** The mark with the product name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span
      className={cn("inline-flex items-center gap-2 text-base font-semibold tracking-tight text-foreground", className)}
    >
      <LogoMark />
      Trellis
    </span>
  );
}
