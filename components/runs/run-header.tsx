import Link from "next/link";
import { formatCost, formatDuration } from "@/components/ui/format";
import { Stat, StatList } from "@/components/ui/stat-list";
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
    <StatList layout="tiles" className="grid-cols-2 sm:grid-cols-4 xl:grid-cols-7" data-testid="run-header">
      <Stat label="Workflow" className="truncate font-medium" data-testid="run-header-workflow">
        {workflow?.id ? (
          <Link
            href={`/workflows/${workflow.id}`}
            className="text-foreground no-underline hover:underline"
            title={workflow.name ?? undefined}
          >
            {workflow.name ?? "(deleted)"}
          </Link>
        ) : (
          "—"
        )}
      </Stat>
      <Stat label="Version" data-testid="run-header-version">
        {workflow?.version ? `v${workflow.version}` : "Draft"}
      </Stat>
      <Stat label="Trigger" data-testid="run-header-trigger">
        {TRIGGER_LABELS[trigger] ?? (trigger || "—")}
      </Stat>
      <Stat label="Started" data-testid="run-header-started">
        {run.startedAt ? new Date(run.startedAt).toLocaleString() : "—"}
      </Stat>
      <Stat label="Duration" data-testid="run-header-duration">
        {formatDuration(duration)}
      </Stat>
      <Stat label="Status">
        <StatusBadge status={run.status} testId="run-header-status" />
      </Stat>
      <Stat label="Cost" data-testid="run-header-cost">
        {formatCost(run.cost)}
      </Stat>
    </StatList>
  );
}
