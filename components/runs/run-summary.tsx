import { formatCost, formatDuration } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";

/** Run status line: status, duration, tokens, cost, error and the demo-model badge. */
export function RunSummary({
  status,
  durationMs,
  tokensIn,
  tokensOut,
  cost,
  usesDemoModel,
  errorCode,
  errorMessage,
}: {
  status: string | null;
  durationMs: number | null;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  usesDemoModel: boolean;
  errorCode?: string | null;
  errorMessage?: string | null;
}) {
  return (
    <div className="run-summary" data-testid="run-summary">
      <StatusBadge status={status} testId="run-status" />
      <span>{formatDuration(durationMs)}</span>
      <span>
        {tokensIn + tokensOut} tokens ({tokensIn} in / {tokensOut} out)
      </span>
      <span>{formatCost(cost)}</span>
      {usesDemoModel && (
        <span
          className="badge badge-demo"
          data-testid="demo-model-badge"
          title="Answers came from the offline demo model, not a real LLM"
        >
          demo model
        </span>
      )}
      {errorCode && (
        <span className="error-inline" data-testid="run-error">
          <code>{errorCode}</code> {errorMessage}
        </span>
      )}
    </div>
  );
}
