import { getRunOwner, getRunWithNodeRuns, listRunEvents, RunNotFoundError } from "../db/run-repository";
import { requireApiKey } from "./api-key-auth";
import { limitApiCalls } from "./rate-limits";

/** What API clients learn about a run (blocking answers and `GET /api/v1/runs/:id`). */
export interface PublicRunResult {
  /** Run id, for polling, cancelling and answering. */
  runId: string;
  /** queued | running | waiting | succeeded | failed | cancelled. */
  status: string;
  /** The end node's outputs (empty until the run ends). */
  outputs: unknown;
  /** Why the run failed, when it did. */
  error: { code: string; message: string | null } | null;
  /** Tokens and cost so far. */
  usage: { tokensIn: number; tokensOut: number; cost: number };
  /** True when the offline demo model answered. */
  usesDemoModel: boolean;
  /** Set while a human-input node waits: what to answer with `POST /api/v1/runs/:id/resume`. */
  waiting: { nodeId: string; prompt: string; fields: unknown[]; timeoutAt: number | null } | null;
}

/** What a waiting run asks (from its last `run-waiting` event); null unless `status` is `waiting`. */
export async function runWaiting(runId: string, status: string): Promise<PublicRunResult["waiting"]> {
  if (status !== "waiting") return null;
  const asked = (await listRunEvents(runId, 0)).findLast((event) => event.type === "run-waiting");
  if (asked?.type !== "run-waiting") return null;
  return { nodeId: asked.nodeId, prompt: asked.prompt, fields: asked.fields, timeoutAt: asked.timeoutAt ?? null };
}

/** The run as API clients see it, or null when it does not exist. */
export async function publicRunResult(runId: string): Promise<PublicRunResult | null> {
  const result = await getRunWithNodeRuns(runId);
  if (!result) return null;
  const { run } = result;
  const waiting = await runWaiting(runId, run.status);
  return {
    runId,
    status: run.status,
    outputs: run.outputs ?? {},
    error: run.errorCode ? { code: run.errorCode, message: run.errorMessage } : null,
    usage: { tokensIn: run.tokensIn, tokensOut: run.tokensOut, cost: run.cost },
    usesDemoModel: run.usesDemoModel,
    waiting,
  };
}

/**
 * An API client's access to a run: a valid key with the `run` scope, within the rate limit, for a
 * run the key started or could have (same workspace, the key's workflow if it has one, an API run).
 * Anything else is "not found", like an unknown id.
 */
export async function requireApiRun(request: Request, runId: string): Promise<void> {
  const grant = await requireApiKey(request, "run");
  await limitApiCalls(grant.keyId);
  const run = await getRunOwner(runId);
  if (
    !run ||
    run.workspaceId !== grant.workspaceId ||
    run.trigger !== "api" ||
    (grant.workflowId !== null && run.workflowId !== grant.workflowId)
  ) {
    throw new RunNotFoundError(runId);
  }
}
