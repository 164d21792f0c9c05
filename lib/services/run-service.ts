import "server-only";
import { readDatabaseConfig } from "../db/database-config";
import { database } from "../db/prisma-client";
import { createPrismaRunRecorder } from "../db/run-recorder";
import {
  createRun,
  endRun,
  findInterruptedRuns,
  getRunForExecution,
  listRunEvents,
  markRunUsesDemoModel,
} from "../db/run-repository";
import type { RunRecorder } from "../engine/recorder";
import { resumeRun } from "../engine/resume-run";
import { type RunResult, type RunWorkflowOptions, runWorkflow } from "../engine/run-workflow";
import { notifyObservers, type RunObservationContext, type RunObserver } from "../observability/run-observer";
import type { RunEvent } from "../runs/run-events";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import { compileWorkflow } from "../workflow/compile";
import { compileNodeRun } from "../workflow/compile-node-run";
import type { CompiledWorkflow } from "../workflow/compiled";
import { TrellisError } from "../workflow/errors";
import type { StartConfig } from "../workflow/nodes/start";
import { checkRunInputs, type RunInputIssue } from "../workflow/run-inputs";
import { createEngineServices } from "./engine-services";
import { RunEventBus } from "./run-bus";
import { planSingleNodeRun, SingleNodeNotFoundError } from "./single-node-workflow";
import { listWorkspaceTools } from "./workspace-tools";

/** The document did not compile; `issues` says where. */
export class WorkflowInvalidError extends TrellisError {
  /** Compile issues with node, field path and code. */
  readonly issues: unknown[];

  constructor(issues: unknown[], message = "The workflow has errors; fix them before running.") {
    super("workflow_invalid", message);
    this.issues = issues;
  }
}

/** The start inputs do not match the start node's declared inputs. Code `invalid_input` (422), every field listed. */
export class InvalidRunInputsError extends TrellisError {
  /** One entry per bad field: `{ field, code, message }` (`path` too, as compile issues have). */
  readonly issues: (RunInputIssue & { path: string })[];
  /** The first bad field, for forms that show one. */
  readonly details: { field: string };

  constructor(issues: RunInputIssue[]) {
    super("invalid_input", `The run inputs are not valid: ${issues.map((issue) => issue.message).join(" ")}`, {
      hint: "Send the inputs the start node declares, with their declared types.",
    });
    this.issues = issues.map((issue) => ({ ...issue, path: `inputs.${issue.field}` }));
    this.details = { field: `inputs.${issues[0]?.field ?? ""}` };
  }
}

/**
 * Checks run inputs against the compiled workflow's start node before any run exists, so a bad
 * request is a 422 naming each field rather than a failed run.
 * @throws InvalidRunInputsError
 */
export function assertRunInputs(compiled: CompiledWorkflow, inputs: Record<string, unknown>): void {
  const start = compiled.nodes[compiled.startNodeId];
  if (!start) return;
  const checked = checkRunInputs(start.config as unknown as StartConfig, inputs);
  if (!checked.ok) throw new InvalidRunInputsError(checked.issues);
}

/** A run id that is not active in this process (finished, or owned by another worker). */
export class RunNotActiveError extends TrellisError {
  constructor(runId: string, status: string) {
    super("run_not_active", `Run ${runId} is ${status}; only queued, running or waiting runs can do that.`);
  }
}

/** What starting a run needs. */
export interface StartRunInput {
  /** Workspace owning the workflow. */
  workspaceId: string;
  /** Workflow id. */
  workflowId: string;
  /** The document to run (a draft from the editor, or a published version's document). */
  document: unknown;
  /** Run inputs for the start node. */
  inputs: Record<string, unknown>;
  /** Where the run came from. */
  trigger: RunTrigger;
  /** Published version id, when running a version. */
  versionId?: string;
}

/** What running one node alone needs (the editor's "Run this node only"). */
export interface StartSingleNodeInput {
  /** Workspace owning the workflow. */
  workspaceId: string;
  /** Workflow id. */
  workflowId: string;
  /** The document the node belongs to (usually the editor's unsaved draft). */
  document: unknown;
  /** The node to run. */
  nodeId: string;
  /**
   * Outputs of upstream nodes by node id (missing ones count as `{}`); for a node inside an
   * iteration body also `item` and `index`.
   */
  variables: Record<string, unknown>;
}

/** Options of a run service (tests and embedding replace executors). */
export interface RunServiceOptions {
  /** Executor overrides by node type. */
  executors?: RunWorkflowOptions["executors"];
  /**
   * The workspace's tool names, for the compiler's unknown-tool check; the workspace registry by
   * default. Resolving to undefined skips the check.
   */
  listToolNames?: (workspaceId: string) => Promise<string[] | undefined>;
  /**
   * Called with every event of the runs this service executes, after it was recorded and
   * published (metrics, traces); the composition root passes its observability's observers.
   */
  observers?: readonly RunObserver[];
}

/** Tool names of a workspace; when the sources cannot be listed the engine reports it at run time. */
async function workspaceToolNames(workspaceId: string): Promise<string[] | undefined> {
  try {
    return (await listWorkspaceTools(workspaceId)).tools.map((tool) => tool.name);
  } catch {
    return undefined;
  }
}

/** The options every engine call of this service shares. */
type CommonRunOptions = Pick<RunWorkflowOptions, "runId" | "recorder" | "services" | "signal" | "executors"> & {
  onEvent: (event: RunEvent) => void;
};

/** The answer names a node the run is not waiting on. */
export class AnswerForWrongNodeError extends TrellisError {
  constructor(runId: string, nodeId: string, waitingOn: string | undefined) {
    super(
      "invalid_answer",
      waitingOn
        ? `Run ${runId} waits on node ${waitingOn}, not ${nodeId}.`
        : `Run ${runId} has no waiting node in its checkpoint.`,
    );
  }
}

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Owns the runs of this process: compiles, creates the Run row, runs the engine in the
 * background with the Prisma recorder, fans events out to SSE subscribers, cancels, resumes
 * waiting runs and, at start-up, runs a crash left behind. No run can stay `running` because the
 * engine threw: every background run ends in a terminal status written here.
 */
export class RunService {
  constructor(private readonly options: RunServiceOptions = {}) {}

  private readonly bus = new RunEventBus();
  private readonly active = new Map<string, ActiveRun>();
  private readonly provider = readDatabaseConfig().provider;

  private toolNames(workspaceId: string): Promise<string[] | undefined> {
    return (this.options.listToolNames ?? workspaceToolNames)(workspaceId);
  }

  /** Compiles and starts a run; resolves with its id as soon as the Run row exists. */
  async start(input: StartRunInput): Promise<{ runId: string; done: Promise<void> }> {
    const compiled = compileWorkflow(input.document, { knownToolNames: await this.toolNames(input.workspaceId) });
    if (!compiled.ok) throw new WorkflowInvalidError(compiled.issues);
    assertRunInputs(compiled.workflow, input.inputs);
    const runId = await createRun({
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      versionId: input.versionId,
      trigger: input.trigger,
      compiled: compiled.workflow,
      inputs: input.inputs,
      usesDemoModel: false,
    });
    const done = this.execute(
      runId,
      input.workspaceId,
      (common) =>
        runWorkflow(compiled.workflow, input.inputs, {
          ...common,
          workflowId: input.workflowId,
          versionId: input.versionId,
        }),
      { trigger: input.trigger },
    );
    return { runId, done };
  }

  /**
   * Runs one node with supplied upstream outputs, recorded as a Run with trigger `single-node`.
   * The engine resumes from a checkpoint in which every upstream node is finished, on a workflow
   * whose top-level scope holds only those nodes and the target (see `planSingleNodeRun`).
   */
  async startSingleNode(input: StartSingleNodeInput): Promise<{ runId: string; done: Promise<void> }> {
    // Only the node (and a container's body) must be valid: the rest of a draft is often unfinished.
    const compiled = compileNodeRun(input.document, input.nodeId, {
      knownToolNames: await this.toolNames(input.workspaceId),
    });
    if (!compiled.ok) {
      if (compiled.nodeMissing) throw new SingleNodeNotFoundError(input.nodeId);
      throw new WorkflowInvalidError(compiled.issues, "This node has errors; fix them before running it.");
    }
    const plan = planSingleNodeRun(compiled.workflow, input.nodeId, input.variables);
    const runId = await createRun({
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      trigger: "single-node",
      compiled: plan.workflow,
      inputs: {},
      usesDemoModel: false,
    });
    const done = this.execute(
      runId,
      input.workspaceId,
      (common) =>
        runWorkflow(
          plan.workflow,
          {},
          {
            ...common,
            workflowId: input.workflowId,
            resumeFrom: { runId, seq: 0, state: plan.state },
          },
        ),
      { trigger: "single-node" },
    );
    return { runId, done };
  }

  /** Subscribes to live events; replay of persisted ones is `replay`'s job. */
  subscribe(runId: string, listener: (event: RunEvent) => void): () => void {
    return this.bus.subscribe(runId, listener);
  }

  /** Persisted events after `afterSeq`. */
  replay(runId: string, afterSeq: number): Promise<RunEvent[]> {
    return listRunEvents(runId, afterSeq);
  }

  /** Whether this process is executing the run now. */
  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  /** Cancels a run: running executors see the abort; the run ends `cancelled`. */
  async cancel(runId: string): Promise<void> {
    const active = this.active.get(runId);
    if (active) {
      active.controller.abort(new Error("Cancelled by a user."));
      await active.done;
      return;
    }
    const run = await getRunForExecution(runId);
    if (run.status === "waiting" || run.status === "queued") {
      await this.endOutsideEngine(
        { runId, workspaceId: run.workspaceId, trigger: run.trigger },
        "cancelled",
        "run_cancelled",
        "Cancelled by a user while waiting.",
      );
      return;
    }
    throw new RunNotActiveError(runId, run.status);
  }

  /**
   * Answers a waiting human-input node and continues the run from its checkpoint. Resolves once
   * the engine accepted the answer (the run restarted), so a bad answer is the caller's error.
   */
  async resume(runId: string, nodeId: string, answer: Record<string, unknown>): Promise<{ done: Promise<void> }> {
    const run = await getRunForExecution(runId);
    if (run.status !== "waiting" || this.active.has(runId)) throw new RunNotActiveError(runId, run.status);
    const recorder = this.createRecorder();
    const checkpoint = await recorder.loadCheckpoint(runId);
    const waitingOn = (checkpoint?.state as { waiting?: { nodeId?: string } } | undefined)?.waiting?.nodeId;
    if (waitingOn !== nodeId) throw new AnswerForWrongNodeError(runId, nodeId, waitingOn);
    let accepted!: () => void;
    const started = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    const done = this.execute(
      runId,
      run.workspaceId,
      (common) =>
        resumeRun(runId, answer, {
          ...common,
          compiled: run.compiled,
          workflowId: run.workflowId,
          versionId: run.versionId ?? undefined,
          onEvent: (event) => {
            accepted();
            common.onEvent(event);
          },
        }),
      { recorder, rethrow: true, trigger: run.trigger },
    );
    // Validation errors reject before the engine emits anything; once it emits, the answer was accepted.
    await Promise.race([started, done]);
    return { done: done.catch(() => undefined) };
  }

  /** Resumes every run a crash left `running`/`queued`: finished nodes are restored, not re-run. */
  async resumeInterrupted(): Promise<string[]> {
    const resumed: string[] = [];
    for (const runId of await findInterruptedRuns()) {
      if (this.active.has(runId)) continue;
      try {
        const run = await getRunForExecution(runId);
        const recorder = this.createRecorder();
        const checkpoint = await recorder.loadCheckpoint(runId);
        void this.execute(
          runId,
          run.workspaceId,
          (common) =>
            runWorkflow(run.compiled, run.inputs, {
              ...common,
              workflowId: run.workflowId,
              versionId: run.versionId ?? undefined,
              resumeFrom: checkpoint ?? undefined,
            }),
          { recorder, trigger: run.trigger },
        );
        resumed.push(runId);
      } catch (error) {
        await endRun(runId, "failed", "resume_failed", error instanceof Error ? error.message : String(error));
      }
    }
    return resumed;
  }

  private createRecorder(): RunRecorder {
    return createPrismaRunRecorder(database(), this.provider);
  }

  /**
   * Runs `runner` in the background with this service's recorder, services, cancellation and
   * event fan-out. Whatever happens, the run ends in a terminal status (or waiting).
   */
  private execute(
    runId: string,
    workspaceId: string,
    runner: (common: CommonRunOptions) => Promise<RunResult>,
    options: { trigger: RunTrigger; recorder?: RunRecorder; rethrow?: boolean },
  ): Promise<void> {
    const controller = new AbortController();
    const observed: RunObservationContext = { runId, workspaceId, trigger: options.trigger };
    const recorder = options.recorder ?? this.createRecorder();
    const done = (async () => {
      let engineStarted = false;
      try {
        const services = await createEngineServices({
          workspaceId,
          onDemoModelUsed: () => void markRunUsesDemoModel(runId).catch(() => undefined),
        });
        const result = await runner({
          runId,
          recorder,
          services,
          signal: controller.signal,
          executors: this.options.executors,
          onEvent: (event) => {
            engineStarted = true;
            this.publish(event, observed);
          },
        });
        await this.ensureTerminal(runId, result.status);
      } catch (error) {
        if (options.rethrow && !engineStarted) throw error;
        // The engine promises not to throw; this guards the promise anyway so a run never stays running.
        const message = error instanceof Error ? error.message : String(error);
        await recorder.flush().catch(() => undefined);
        await this.endOutsideEngine(observed, "failed", "engine_crashed", message).catch(() => undefined);
      } finally {
        this.active.delete(runId);
      }
    })();
    this.active.set(runId, { controller, done: done.catch(() => undefined) });
    return done;
  }

  /**
   * Ends a run the engine is not running (cancelled while waiting, or the engine crashed) and tells
   * SSE subscribers, whose streams close on run-end. The seq sorts after any real event.
   */
  private async endOutsideEngine(
    observed: RunObservationContext,
    status: "failed" | "cancelled",
    code: string,
    message: string,
  ): Promise<void> {
    const { runId } = observed;
    await endRun(runId, status, code, message);
    this.publish(
      {
        type: "run-end",
        runId,
        seq: Number.MAX_SAFE_INTEGER,
        at: Date.now(),
        status,
        outputs: {},
        error: { code, message },
        usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
        steps: 0,
        durationMs: 0,
      },
      observed,
    );
  }

  /** Fans an event out to SSE subscribers, then to the observers (metrics, traces). */
  private publish(event: RunEvent, observed: RunObservationContext): void {
    this.bus.publish(event);
    if (this.options.observers) notifyObservers(this.options.observers, event, observed);
  }

  /** The recorder writes the final status; this double-checks it landed (e.g. a failed last flush). */
  private async ensureTerminal(runId: string, status: RunStatus): Promise<void> {
    const row = await database().run.findUnique({ where: { id: runId }, select: { status: true } });
    if (row && (row.status === "running" || row.status === "queued") && status !== "running") {
      await database().run.update({ where: { id: runId }, data: { status, endedAt: new Date() } });
    }
  }
}
