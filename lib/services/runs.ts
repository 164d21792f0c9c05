import "server-only";
import "../db/run-review-history";
import { queryRunHistory, type RunHistoryPage, type RunHistoryQuery } from "../db/run-history";
import { getRunLineage } from "../db/run-lineage-repository";
import {
  findLastRunEvent,
  getNodeRunOfRun,
  getNodeRunPage,
  getRun,
  getRunForExecution,
  getRunOwner,
  getRunWithNodeRuns,
  RunNotFoundError,
  type RunView,
} from "../db/run-repository";
import { describeRunSource } from "../db/workflow-repository";
import { DEFAULT_MAX_VALUE_BYTES, withLargeValueRefs } from "../runs/large-values";
import type { RunEvent } from "../runs/run-events";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import { TrellisError } from "../workflow/errors";
import { type Action, authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { precheckVersionRun, resolvePublishedVersion, startVersionRun } from "./published-api";
import { serviceRoot as root } from "./root";
import { loadWorkflow } from "./workflows";

export { WorkflowNotPublishedError } from "./published-api";

/**
 * The run, if the principal may `action` it: another workspace's run, or (for an API key) a run
 * it could not have started, is "not found" like an unknown id.
 */
export async function authorizeRun(principal: Principal | null, runId: string, action: Action): Promise<void> {
  authorize(principal, action);
  const owner = await getRunOwner(runId);
  if (!owner) throw new RunNotFoundError(runId);
  authorize(principal, action, owner, () => new RunNotFoundError(runId));
}

/** Starts an editor run of the given draft (or the saved one); resolves once the Run row exists. */
export async function startEditorRun(
  principal: Principal | null,
  workflowId: string,
  input: { document?: unknown; inputs: Record<string, unknown>; versionId?: string },
): Promise<{ runId: string; done: Promise<void> }> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.run");
  return root().runs.start({
    workspaceId: workflow.workspaceId,
    workflowId,
    // A re-run of a published version passes that version's document and id.
    versionId: input.versionId,
    document: input.document ?? workflow.draft,
    inputs: input.inputs,
    trigger: "editor",
  });
}

/** Runs one node alone with supplied upstream outputs (the editor's "Run this node only"). */
export async function startSingleNodeRun(
  principal: Principal | null,
  workflowId: string,
  nodeId: string,
  input: { document?: unknown; variables: Record<string, unknown> },
): Promise<{ runId: string; done: Promise<void> }> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.run");
  return root().runs.startSingleNode({
    workspaceId: workflow.workspaceId,
    workflowId,
    document: input.document ?? workflow.draft,
    nodeId,
    variables: input.variables,
  });
}

/** A run of a published workflow as asked for. */
export interface PublishedRunRequest {
  /** The start node's inputs. */
  inputs: Record<string, unknown>;
  /** `api` by default. */
  trigger?: Extract<RunTrigger, "api" | "schedule">;
  /** A published version number; else the pinned one, else the latest. */
  version?: number;
  /** False when the caller reads only the result (see `VersionRunOptions.textDeltas`). */
  textDeltas?: boolean;
}

/**
 * Runs a published version of the workflow named `slug` in the principal's workspace: `version`
 * when given, else the version the workflow is pinned to serve, else the latest. Drafts are never
 * reachable this way: publishing is what makes a workflow callable.
 * @throws WorkflowVersionNotFoundError (404) for a version never published
 */
export async function startPublishedRun(
  principal: Principal | null,
  slug: string,
  input: PublishedRunRequest,
): Promise<{ runId: string; version: number; done: Promise<void> }> {
  return (await planPublishedRun(principal, slug, input)).start();
}

/** A published run whose request was checked, not started yet (see `planPublishedRun`). */
export interface PlannedPublishedRun {
  /** The version that will run. */
  version: number;
  /**
   * True when everything that makes the request the client's error was checked (the version
   * exists, the key may run it, the document compiles, the inputs fit): `start` can then only
   * fail on the server's side. False when compiling needs the workspace's tools, which `start`
   * checks instead.
   */
  checked: boolean;
  /** Creates the Run row and starts the run; resolves once the row exists (`onCreated` hears its id before the run executes). */
  start(onCreated?: (runId: string) => void): Promise<{ runId: string; version: number; done: Promise<void> }>;
}

/**
 * Resolves and checks a published run without starting it, so a streamed answer can send its
 * headers before the run is set up while a bad request still gets a 4xx.
 * @throws WorkflowNotFoundError, WorkflowNotPublishedError, WorkflowVersionNotFoundError, InvalidRunInputsError
 */
export async function planPublishedRun(
  principal: Principal | null,
  slug: string,
  input: PublishedRunRequest,
): Promise<PlannedPublishedRun> {
  const published = await resolvePublishedVersion(
    principal,
    slug,
    input.version === undefined ? undefined : String(input.version),
  );
  authorize(principal, "workflow.run");
  const checked = precheckVersionRun(published, input.inputs);
  return {
    version: published.version,
    checked,
    start: (onCreated) =>
      startVersionRun(principal, published, input.inputs, {
        trigger: input.trigger,
        onCreated,
        textDeltas: input.textDeltas,
      }),
  };
}

/** Cancels a queued, running or waiting run. */
export async function cancelRun(principal: Principal | null, runId: string): Promise<void> {
  await authorizeRun(principal, runId, "run.cancel");
  await root().runs.cancel(runId);
}

/** Answers a waiting human-input node; resolves once the run continues (a bad answer is a 422). */
export async function resumeRun(
  principal: Principal | null,
  runId: string,
  nodeId: string,
  answer: Record<string, unknown>,
): Promise<void> {
  await authorizeRun(principal, runId, "run.resume");
  await root().runs.resume(runId, nodeId, answer);
}

/** A run with every node attempt, for the inspector. */
export async function getRunDetail(principal: Principal | null, runId: string) {
  await authorizeRun(principal, runId, "run.read");
  const detail = await getRunWithNodeRuns(runId);
  if (!detail) throw new RunNotFoundError(runId);
  return { ...(await runDetailHeader(detail.run)), nodeRuns: detail.nodeRuns };
}

/**
 * What the run page's header shows besides the node runs: the workflow and version, the question
 * of a waiting run, the original of a re-run and the re-runs of an original.
 */
async function runDetailHeader(run: RunView) {
  const [waiting, source, lineage, ended] = await Promise.all([
    runWaiting(run.id, run.status),
    describeRunSource(run.workflowId, run.versionId),
    getRunLineage(run.id),
    runEndError(run.id, run.errorCode),
  ]);
  return {
    run,
    errorHint: ended?.hint ?? null,
    waiting,
    workflow: { id: run.workflowId, name: source.name, version: source.version },
    lineage: {
      rerunOfId: lineage?.rerunOfId ?? null,
      reruns: (lineage?.reruns ?? []).map((rerun) => ({ ...rerun, startedAt: rerun.startedAt.toISOString() })),
    },
  };
}

/** How much of a run's node runs one run detail answer carries (see lib/runs/large-values.ts). */
export interface RunDetailPageOptions {
  /** Node runs per page (in start order); default 2,000. */
  limit?: number;
  /** The `nodeRuns.nextCursor` of the previous page. */
  after?: string;
  /** Largest serialized inputs / processData / outputs sent inline, in bytes; larger ones are references. */
  maxValueBytes?: number;
}

/** Default node runs per run detail page. */
export const DEFAULT_NODE_RUN_PAGE = 2_000;

/**
 * The run detail as the API serves it: one page of node runs (`nodeRunsPage.nextCursor` names the
 * next one) with large values sent as references, so a run of tens of MB answers in pages.
 * @throws RunCursorInvalidError for a cursor that names no node run of the run.
 */
export async function getRunDetailPage(principal: Principal | null, runId: string, options: RunDetailPageOptions = {}) {
  await authorizeRun(principal, runId, "run.read");
  const run = await getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const limit = options.limit ?? DEFAULT_NODE_RUN_PAGE;
  const maxBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  // The database reads one page (keyset on (startedAt, id)), never every node run of the run.
  const [header, page] = await Promise.all([
    runDetailHeader(run),
    getNodeRunPage(runId, { after: options.after, limit }),
  ]);
  if (!page) throw new RunCursorInvalidError();
  return {
    ...header,
    nodeRuns: page.nodeRuns.map((nodeRun) => withLargeValueRefs(runId, nodeRun, maxBytes)),
    nodeRunsPage: { total: page.total, nextCursor: page.more ? (page.nodeRuns.at(-1)?.id ?? null) : null },
  };
}

/** One node run of a run, whole (what a large-value reference of the run detail points at). */
export async function getNodeRunDetail(principal: Principal | null, runId: string, nodeRunId: string) {
  await authorizeRun(principal, runId, "run.read");
  const nodeRun = await getNodeRunOfRun(runId, nodeRunId);
  if (!nodeRun) throw new NodeRunNotFoundError(nodeRunId);
  return nodeRun;
}

/** A run detail cursor that names no node run of the run. Code `invalid_cursor` (422, field `nodeRunsAfter`). */
export class RunCursorInvalidError extends TrellisError {
  readonly details = { field: "nodeRunsAfter" };
  constructor() {
    super("invalid_cursor", "nodeRunsAfter: not a node run of this run (use nodeRunsPage.nextCursor)");
  }
}

/** A node run id that is not one of the run's. Code `node_run_not_found` (404). */
export class NodeRunNotFoundError extends TrellisError {
  constructor(nodeRunId: string) {
    super("node_run_not_found", `Node run "${nodeRunId}" is not part of this run.`);
  }
}

/** What a waiting run asks (its last `run-waiting` event); null unless `status` is `waiting`. */
async function runWaiting(runId: string, status: string): Promise<PublicRunResult["waiting"]> {
  if (status !== "waiting") return null;
  const asked = await findLastRunEvent(runId, "run-waiting");
  if (!asked) return null;
  return { nodeId: asked.nodeId, prompt: asked.prompt, fields: asked.fields, timeoutAt: asked.timeoutAt ?? null };
}

/**
 * The run-end event's error when it is the one the Run row keeps (same code): the row keeps code
 * and message, the event also the node, the fix hint and what is missing. Undefined without one.
 */
async function runEndError(runId: string, errorCode: string | null) {
  if (!errorCode) return undefined;
  const ended = await findLastRunEvent(runId, "run-end");
  return ended?.error?.code === errorCode ? ended.error : undefined;
}

/** What API clients learn about a run (blocking answers and `GET /api/v1/runs/:id`). */
export interface PublicRunResult {
  /** Run id, for polling, cancelling and answering. */
  runId: string;
  /** queued | running | waiting | succeeded | partial | failed | cancelled. */
  status: string;
  /** The end node's outputs (empty until the run ends). */
  outputs: unknown;
  /**
   * Why the run failed, or what a `partial` run lacks: the real code (`model_rate_limited`,
   * `deadline_exceeded`, `parse_failed`, …), the node it came from, a fix hint, and for partial
   * runs the list of what is missing.
   */
  error: { code: string; message: string | null; nodeId?: string; hint?: string; missing?: string[] } | null;
  /** Tokens and cost so far, named as in the SSE `run-end` event. */
  usage: { inputTokens: number; outputTokens: number; cost: number };
  /** True when the offline demo model answered. */
  usesDemoModel: boolean;
  /** Set while a human-input node waits: what to answer with `POST /api/v1/runs/:id/resume`. */
  waiting: { nodeId: string; prompt: string; fields: unknown[]; timeoutAt: number | null } | null;
}

/** The run as API clients see it. */
export async function getPublicRun(principal: Principal | null, runId: string): Promise<PublicRunResult> {
  await authorizeRun(principal, runId, "run.read");
  return publicRunResult(runId);
}

/** The public view of a run the caller was already authorized for. */
export async function publicRunResult(runId: string): Promise<PublicRunResult> {
  const run = await getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const waiting = await runWaiting(runId, run.status);
  let error: PublicRunResult["error"] = null;
  if (run.errorCode) {
    const info = await runEndError(runId, run.errorCode);
    error = {
      code: run.errorCode,
      message: run.errorMessage,
      ...(info?.nodeId ? { nodeId: info.nodeId } : {}),
      ...(info?.hint ? { hint: info.hint } : {}),
      ...(info?.missing?.length ? { missing: info.missing } : {}),
    };
  }
  return {
    runId,
    status: run.status,
    outputs: run.outputs ?? {},
    error,
    usage: { inputTokens: run.tokensIn, outputTokens: run.tokensOut, cost: run.cost },
    usesDemoModel: run.usesDemoModel,
    waiting,
  };
}

/** Filters, sort and page of a run history (see lib/db/run-history.ts). */
export type RunListFilter = Omit<RunHistoryQuery, "statuses"> & {
  /** Only runs in one of these statuses. */
  status?: RunStatus | readonly RunStatus[];
};

/**
 * A page of the workspace's run history (newest first unless sorted otherwise), with the opaque
 * cursor of the next page (null at the end). A workflow filter must name a workflow the
 * principal may read.
 */
export async function listRuns(principal: Principal | null, filter: RunListFilter): Promise<RunHistoryPage> {
  authorize(principal, "run.read");
  if (filter.workflowId) await loadWorkflow(principal, filter.workflowId);
  const { status, ...rest } = filter;
  const statuses = status === undefined ? undefined : typeof status === "string" ? [status] : status;
  return queryRunHistory(principal.workspaceId, { ...rest, statuses });
}

/** Where a run's events come from: persisted ones to replay, then live ones until run-end. */
export interface RunEventSource {
  /** Persisted events after `afterSeq`. */
  replay(runId: string, afterSeq: number): Promise<RunEvent[]>;
  /** Live events; returns the unsubscribe function. */
  subscribe(runId: string, listener: (event: RunEvent) => void): () => void;
  /** Whether no more events will come. */
  isFinished(runId: string): Promise<boolean>;
  /** Told when a live event was written to a client's stream (the event-stream lag metric). */
  eventWritten?(event: RunEvent): void;
}

/** The event source of a run the principal may read (SSE in the editor, re-attach for API clients). */
export async function openRunEvents(principal: Principal | null, runId: string): Promise<RunEventSource> {
  await authorizeRun(principal, runId, "run.read");
  return runEventSource();
}

/** The event source of this process's runs, for a run already authorized. */
export function runEventSource(): RunEventSource {
  const { runs, observability } = root();
  return {
    eventWritten: (event) => observability.metrics.recordEventStreamLag(Date.now() - event.at),
    replay: (id, seq) => runs.replay(id, seq),
    subscribe: (id, listener) => runs.subscribe(id, listener),
    isFinished: async (id) => {
      if (runs.isActive(id)) return false;
      const run = await getRunForExecution(id);
      // In queue mode nothing is active here: the Run row (written by the worker) decides.
      return run.status !== "running" && run.status !== "queued";
    },
  };
}
