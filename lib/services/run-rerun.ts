import "server-only";
import { z } from "zod";
import { getRunLineage, getVersionById, markRerunOf } from "../db/run-lineage-repository";
import { getRunForExecution, getRunOwner, RunNotFoundError } from "../db/run-repository";
import { getLatestVersion } from "../db/workflow-repository";
import type { WorkflowDocument } from "../workflow/document";
import type { Principal } from "./access/principal";
import { RerunUnavailableError } from "./run-review-errors";
import { authorizeRun, startEditorRun } from "./runs";

/** Which workflow a re-run uses: the version the run used, the current draft, or the latest published version. */
export const RERUN_TARGETS = ["same", "draft", "latest"] as const;

/** Body of `POST /api/runs/:runId/rerun`. */
export const rerunInputSchema = z.object({ target: z.enum(RERUN_TARGETS).default("same") }).strict();

/**
 * Runs the workflow again with the run's inputs, as an editor run of the chosen workflow, and
 * records the link back to the original (`rerunOfId`). Starting goes through `startEditorRun`,
 * so the caller needs `workflow.run` (viewers may review, not run).
 * @throws RerunUnavailableError (409) when `same` has no version to repeat (draft runs keep no
 * document), nothing is published for `latest`, or the run ran one node alone.
 */
export async function rerunRun(
  principal: Principal | null,
  runId: string,
  target: (typeof RERUN_TARGETS)[number],
): Promise<{ runId: string; rerunOfId: string; done: Promise<void> }> {
  await authorizeRun(principal, runId, "run.read");
  const [owner, run, lineage] = await Promise.all([
    getRunOwner(runId),
    getRunForExecution(runId),
    getRunLineage(runId),
  ]);
  if (!owner || !lineage) throw new RunNotFoundError(runId);
  if (owner.trigger === "single-node") {
    throw new RerunUnavailableError(
      "A single-node run has no run inputs to repeat; run the node again from the editor.",
    );
  }
  let source: { document?: WorkflowDocument; versionId?: string } = {};
  if (target === "same") {
    const version = run.versionId ? await getVersionById(run.versionId) : null;
    if (!version) {
      throw new RerunUnavailableError(
        run.versionId
          ? "The version this run used no longer exists; re-run it on the current draft or the latest version."
          : "This run used an unsaved draft that is not kept; re-run it on the current draft or the latest version.",
      );
    }
    source = { document: version.document, versionId: version.id };
  } else if (target === "latest") {
    const latest = await getLatestVersion(run.workflowId);
    if (!latest)
      throw new RerunUnavailableError("This workflow has no published version; re-run it on the current draft.");
    source = { document: latest.document as unknown as WorkflowDocument, versionId: latest.id };
  }
  const started = await startEditorRun(principal, run.workflowId, { ...source, inputs: run.inputs });
  await markRerunOf(started.runId, runId);
  return { ...started, rerunOfId: runId };
}
