import "server-only";
import type { CompiledWorkflow } from "../workflow/compiled";
import type { WorkflowDocument } from "../workflow/document";
import { database } from "./prisma-client";

/** What comparing and re-running a run need beyond its view: the compiled workflow and the re-run links. */
export async function getRunLineage(runId: string): Promise<{
  compiled: CompiledWorkflow;
  rerunOfId: string | null;
  reruns: { id: string; status: string; startedAt: Date }[];
} | null> {
  const db = database();
  const run = await db.run.findUnique({ where: { id: runId }, select: { compiled: true, rerunOfId: true } });
  if (!run) return null;
  const reruns = await db.run.findMany({
    where: { rerunOfId: runId },
    orderBy: { startedAt: "asc" },
    select: { id: true, status: true, startedAt: true },
    take: 50,
  });
  return { compiled: run.compiled as unknown as CompiledWorkflow, rerunOfId: run.rerunOfId, reruns };
}

/** Records that `runId` re-ran `originalId`. */
export async function markRerunOf(runId: string, originalId: string): Promise<void> {
  await database().run.update({ where: { id: runId }, data: { rerunOfId: originalId } });
}

/** A published version by id (its document and number), or null when it is gone. */
export async function getVersionById(
  versionId: string,
): Promise<{ id: string; workflowId: string; version: number; document: WorkflowDocument } | null> {
  const row = await database().workflowVersion.findUnique({
    where: { id: versionId },
    select: { id: true, workflowId: true, version: true, document: true },
  });
  return row ? { ...row, document: row.document as unknown as WorkflowDocument } : null;
}
