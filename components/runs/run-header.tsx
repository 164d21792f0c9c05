import Link from "next/link";
import { formatCost, formatDuration } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunDetail } from "@/lib/runs/node-run-view";

/** How each trigger is named in the header. */
const TRIGGER_LABELS: Record<string, string> = {
  editor: "Editor run",
  api: "API call",
  schedule: "Schedule",
  "single-node": "Single node",
  evaluation: "Evaluation trial",
};

/**
 * The run page's header: workflow (linked to its editor), version (or "draft"), trigger, start
 * time, duration, status and cost, as in n8n's execution view.
 */
export function RunHeader({ detail }: { detail: RunDetail }) {
  const { run } = detail;
  const workflow = detail.workflow;
  const trigger = (run as { trigger?: string }).trigger ?? "";
  const duration =
    run.startedAt && run.endedAt
      ? Date.parse(run.endedAt) - Date.parse(run.startedAt)
      : run.startedAt
        ? Date.now() - Date.parse(run.startedAt)
        : null;
  return (
    <dl
      className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg border border-border bg-card p-3 text-sm sm:grid-cols-4 lg:grid-cols-7"
      data-testid="run-header"
    >
      <div>
        <dt className="text-xs text-muted-foreground">Workflow</dt>
        <dd className="truncate font-medium" data-testid="run-header-workflow">
          {workflow?.id ? <Link href={`/workflows/${workflow.id}`}>{workflow.name ?? "(deleted)"}</Link> : "—"}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Version</dt>
        <dd data-testid="run-header-version">{workflow?.version ? `v${workflow.version}` : "Draft"}</dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Trigger</dt>
        <dd data-testid="run-header-trigger">{TRIGGER_LABELS[trigger] ?? (trigger || "—")}</dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Started</dt>
        <dd data-testid="run-header-started">{run.startedAt ? new Date(run.startedAt).toLocaleString() : "—"}</dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Duration</dt>
        <dd data-testid="run-header-duration">{formatDuration(duration)}</dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Status</dt>
        <dd>
          <StatusBadge status={run.status} testId="run-header-status" />
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Cost</dt>
        <dd data-testid="run-header-cost">{formatCost(run.cost)}</dd>
      </div>
    </dl>
  );
}
