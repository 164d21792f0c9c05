import type { VariantProps } from "class-variance-authority";
import { Badge, type badgeVariants } from "./badge";

type Tone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

/** Run, node-run and evaluation statuses on the badge tones; anything else is neutral. */
const TONES: Record<string, Tone> = {
  succeeded: "success",
  ready: "success",
  failed: "destructive",
  cancelled: "destructive",
  error: "destructive",
  unavailable: "destructive",
  invalid: "destructive",
  running: "info",
  queued: "info",
  waiting: "warning",
  partial: "warning",
  warning: "warning",
};

/** A coloured pill for run and node-run statuses; a pulsing dot while it is still going. */
export function StatusBadge({ status, testId }: { status: string | null | undefined; testId?: string }) {
  if (!status) return <Badge tone="neutral">never run</Badge>;
  return (
    <Badge tone={TONES[status] ?? "neutral"} data-testid={testId} data-status={status}>
      {(status === "running" || status === "queued") && (
        <span aria-hidden className="size-1.5 animate-pulse-dot rounded-full bg-current" />
      )}
      {status}
    </Badge>
  );
}
