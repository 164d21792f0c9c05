import "server-only";
import { createRedactor } from "../engine/redactor";
import type { RunDetail } from "../runs/node-run-view";
import type { RunReviewView } from "../runs/run-review-view";
import type { Principal } from "./access/principal";
import { workspaceSecrets } from "./engine-services";
import { getRunReviewView } from "./run-reviews";
import { getRunDetail } from "./runs";

/** Export formats: one JSON document, or JSON Lines (one record a line: run, node runs, comments). */
export const RUN_EXPORT_FORMATS = ["json", "jsonl"] as const;

/** A run as exported: what the run page shows, never the compiled workflow or any stored secret. */
export interface RunExport {
  format: "trellis-run";
  version: 1;
  exportedAt: string;
  run: RunDetail["run"];
  workflow: RunDetail["workflow"];
  lineage: RunDetail["lineage"];
  nodeRuns: RunDetail["nodeRuns"];
  review: RunReviewView;
}

/**
 * The run, its node runs and its review, with every secret value the workspace stores masked by
 * the same redactor runs use (events are redacted when recorded; this also masks a secret added
 * since, or one a tool echoed in a shape the run did not know).
 */
export async function exportRun(
  principal: Principal | null,
  runId: string,
  format: (typeof RUN_EXPORT_FORMATS)[number],
): Promise<{ body: string; contentType: string; fileName: string }> {
  const detail = (await getRunDetail(principal, runId)) as unknown as RunDetail;
  const review = await getRunReviewView(principal, runId);
  const secrets = await workspaceSecrets((principal as Principal).workspaceId);
  const redactor = createRedactor(secrets);
  const record: RunExport = {
    format: "trellis-run",
    version: 1,
    exportedAt: new Date().toISOString(),
    run: detail.run,
    workflow: detail.workflow,
    lineage: detail.lineage,
    nodeRuns: detail.nodeRuns,
    review,
  };
  // Dates become strings first, so the redactor sees plain JSON.
  const plain = JSON.parse(JSON.stringify(record)) as RunExport;
  const safe = redactor ? redactor.redact(plain) : plain;
  if (format === "json") {
    return {
      body: `${JSON.stringify(safe, null, 2)}\n`,
      contentType: "application/json",
      fileName: `run-${runId}.json`,
    };
  }
  const lines = [
    {
      type: "run",
      format: safe.format,
      version: safe.version,
      exportedAt: safe.exportedAt,
      run: safe.run,
      workflow: safe.workflow,
      lineage: safe.lineage,
      review: { ...safe.review, comments: undefined },
    },
    ...safe.nodeRuns.map((nodeRun) => ({ type: "node-run", runId, ...nodeRun })),
    ...safe.review.comments.map((comment) => ({ type: "comment", runId, ...comment })),
  ];
  return {
    body: `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`,
    contentType: "application/x-ndjson",
    fileName: `run-${runId}.jsonl`,
  };
}
