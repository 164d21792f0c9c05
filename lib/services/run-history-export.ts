import "server-only";
import { queryRunHistory } from "../db/run-history";
import { createRedactor } from "../engine/redactor";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { workspaceSecrets } from "./engine-services";
import { listRuns, type RunListFilter } from "./runs";

/** Runs read per page while exporting (the history's largest page). */
const EXPORT_PAGE_SIZE = 200;

/**
 * The runs matching a history filter as JSON Lines, one run per line, read page by page with
 * the history's cursor so memory stays flat however many runs match. Every line passes through
 * the workspace's redactor (the one runs use), so a stored secret that reached a run's inputs
 * never leaves in an export. Access is checked before the first line.
 */
export async function exportRuns(
  principal: Principal | null,
  filter: Omit<RunListFilter, "cursor" | "limit">,
): Promise<AsyncGenerator<string>> {
  authorize(principal, "run.read");
  // Checks the workflow filter and the query (a bad cursor or filter fails here, as a 4xx).
  await listRuns(principal, { ...filter, limit: 1 });
  const redactor = createRedactor(await workspaceSecrets(principal.workspaceId));
  const workspaceId = principal.workspaceId;
  const { status, ...rest } = filter;
  const statuses = status === undefined ? undefined : typeof status === "string" ? [status] : status;
  return (async function* lines() {
    let cursor: string | undefined;
    do {
      const page = await queryRunHistory(workspaceId, { ...rest, statuses, cursor, limit: EXPORT_PAGE_SIZE });
      for (const run of page.runs) {
        const record = {
          id: run.id,
          workflowId: run.workflowId,
          workflowName: run.workflowName,
          versionId: run.versionId,
          trigger: run.trigger,
          apiKeyId: run.apiKeyId,
          status: run.status,
          inputs: run.inputs,
          outputs: run.outputs,
          error: run.errorCode ? { code: run.errorCode, message: run.errorMessage } : null,
          startedAt: new Date(run.startedAt).toISOString(),
          endedAt: run.endedAt ? new Date(run.endedAt).toISOString() : null,
          durationMs: run.durationMs,
          steps: run.steps,
          usage: { inputTokens: run.tokensIn, outputTokens: run.tokensOut, cost: run.cost },
          usesDemoModel: run.usesDemoModel,
        };
        yield `${JSON.stringify(redactor ? redactor.redact(record) : record)}\n`;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  })();
}
