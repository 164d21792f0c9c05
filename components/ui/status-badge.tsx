/** A coloured pill for run and node-run statuses. */
export function StatusBadge({ status, testId }: { status: string | null | undefined; testId?: string }) {
  if (!status) return <span className="badge badge-none">never run</span>;
  return (
    <span className={`badge badge-${status}`} data-testid={testId} data-status={status}>
      {status}
    </span>
  );
}
