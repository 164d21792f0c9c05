import { DemoModelBadge } from "@/components/ui/demo-model-badge";
import { formatCost, formatDuration } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";

/**
 * Run status line: status, duration, tokens, cost, error and the demo-model badge. It grows to
 * fill a flex row (the editor's run panel bar) and wraps on narrow ones.
 */
export function RunSummary({
  status,
  durationMs,
  tokensIn,
  tokensOut,
  cost,
  usesDemoModel,
  errorCode,
  errorMessage,
  errorHint,
}: {
  status: string | null;
  durationMs: number | null;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  usesDemoModel: boolean;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** How to fix it, when the error says (live runs: the run-end event carries it). */
  errorHint?: string | null;
}) {
  return (
    <div
      className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground tabular-nums"
      data-testid="run-summary"
    >
      <StatusBadge status={status} testId="run-status" />
      <span>{formatDuration(durationMs)}</span>
      <span>
        <span className="text-foreground">{(tokensIn + tokensOut).toLocaleString("en-US")} tokens</span> (
        {tokensIn.toLocaleString("en-US")} in / {tokensOut.toLocaleString("en-US")} out)
      </span>
      <span className="text-foreground">{formatCost(cost)}</span>
      {usesDemoModel && <DemoModelBadge data-testid="demo-model-badge" />}
      {errorCode && (
        <span className="min-w-0 text-destructive" data-testid="run-error">
          <code>{errorCode}</code> {errorMessage}
          {errorHint && (
            <span className="text-muted-foreground" data-testid="run-error-hint">
              {" "}
              {errorHint}
            </span>
          )}
        </span>
      )}
    </div>
  );
}
