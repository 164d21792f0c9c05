import "server-only";
import { readDatabaseConfig } from "../db/database-config";
import { database } from "../db/prisma-client";
import { PrismaRunRecorder } from "../db/run-recorder";
import {
  createRun,
  endRun,
  findInterruptedRuns,
  getRunForExecution,
  listRunEvents,
  markRunUsesDemoModel,
} from "../db/run-repository";
import { resumeRun } from "../engine/resume-run";
import { type RunResult, type RunWorkflowOptions, runWorkflow } from "../engine/run-workflow";
import type { RunEvent } from "../runs/run-events";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import type { ToolFixture } from "../tools/tool-fixture";
import type { CompiledWorkflow } from "../workflow/compiled";
import { createEngineServices } from "./engine-services";
import { RunEventBus } from "./run-bus";
import { type ListToolNames, planRun, planSingleNode } from "./run-compile";
import {
  AnswerForWrongNodeError,
  type RunExecution,
  RunNotActiveError,
  type RunObservationContext,
  type RunObserver,
  type StartRunInput,
  type StartSingleNodeInput,
} from "./run-execution";

/** Options of a run service (tests and embedding replace executors). */
export interface RunServiceOptions {
  /** Executor overrides by node type. */
  executors?: RunWorkflowOptions["executors"];
  /**
   * The workspace's tool names, for the compiler's unknown-tool check; the workspace registry by
   * default. Resolving to undefined skips the check.
   */
  listToolNames?: ListToolNames;
  /** Told about every event of the runs this service executes (metrics attach here); read live, so later additions count. */
  observers?: readonly RunObserver[];
  /** Every event of the runs this service executes, before the observers (queue workers publish them on Redis). */
  publish?: (event: RunEvent) => void;
}

/** The options every engine call of this service shares. */
type CommonRunOptions = Pick<RunWorkflowOptions, "runId" | "recorder" | "services" | "signal" | "executors"> & {
  onEvent: (event: RunEvent) => void;
};

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
export class RunService implements RunExecution {
  constructor(private readonly options: RunServiceOptions = {}) {}

  private readonly bus = new RunEventBus();
  private readonly active = new Map<string, ActiveRun>();
  /** Who each run executing here belongs to, for the observers. */
  private readonly contexts = new Map<string, RunObservationContext>();
  private readonly provider = readDatabaseConfig().provider;

  /** Compiles and starts a run; resolves with its id as soon as the Run row exists. */
  async start(input: StartRunInput): Promise<{ runId: string; done: Promise<void> }> {
    const { runId, compiled } = await this.prepareStart(input);
    input.onCreated?.(runId);
    const done = this.execute(
      runId,
      { workspaceId: input.workspaceId, trigger: input.trigger },
      (common) =>
        runWorkflow(compiled, input.inputs, {
          ...common,
          workflowId: input.workflowId,
          versionId: input.versionId,
          textDeltas: input.textDeltas,
        }),
      { toolFixture: input.toolFixture },
    );
    return { runId, done };
  }

  /**
   * Compiles, checks the inputs and creates the `queued` Run row, without running it (queue mode
   * hands the id to a worker).
   * @throws WorkflowInvalidError, InvalidRunInputsError
   */
  async prepareStart(input: StartRunInput): Promise<{ runId: string; compiled: CompiledWorkflow }> {
    const workflow = await planRun(input, this.options.listToolNames);
    const runId = await createRun({
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      versionId: input.versionId,
      apiKeyId: input.apiKeyId,
      trigger: input.trigger,
      compiled: workflow,
      inputs: input.inputs,
      usesDemoModel: false,
    });
    return { runId, compiled: workflow };
  }

  /**
   * Runs one node with supplied upstream outputs, recorded as a Run with trigger `single-node`.
   * The engine resumes from a checkpoint in which every upstream node is finished, on a workflow
   * whose top-level scope holds only those nodes and the target (see `planSingleNodeRun`).
   */
  async startSingleNode(input: StartSingleNodeInput): Promise<{ runId: string; done: Promise<void> }> {
    const { runId, workflow, state } = await this.prepareSingleNode(input);
    const done = this.execute(runId, { workspaceId: input.workspaceId, trigger: "single-node" }, (common) =>
      runWorkflow(
        workflow,
        {},
        {
          ...common,
          workflowId: input.workflowId,
          resumeFrom: { runId, seq: 0, state },
        },
      ),
    );
    return { runId, done };
  }

  /** Compiles the node, plans its run and creates the Run row, without running it. */
  async prepareSingleNode(
    input: StartSingleNodeInput,
  ): Promise<{ runId: string; workflow: CompiledWorkflow; state: Record<string, unknown> }> {
    const { workflow, state } = await planSingleNode(input, this.options.listToolNames);
    const runId = await createRun({
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      trigger: "single-node",
      compiled: workflow,
      inputs: {},
      usesDemoModel: false,
    });
    return { runId, workflow, state };
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
      await this.endOutsideEngine(runId, "cancelled", "run_cancelled", "Cancelled by a user while waiting.");
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
      { workspaceId: run.workspaceId, trigger: run.trigger },
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
      { recorder, rethrow: true },
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
      if ((await this.executeStored(runId)) !== undefined) resumed.push(runId);
    }
    return resumed;
  }

  /**
   * Executes a stored `queued`/`running` run from its checkpoint (or `initialState`, or the
   * start): finished nodes are restored, not re-run. A queue worker calls this for every job, so
   * a run picked up after a worker died continues where its checkpoint left it. Resolves
   * `undefined` when the run is not executable (already ended, waiting, or active here); the
   * returned `done` settles when the run ends or waits.
   */
  async executeStored(
    runId: string,
    options: { initialState?: Record<string, unknown>; textDeltas?: boolean } = {},
  ): Promise<{ done: Promise<void> } | undefined> {
    if (this.active.has(runId)) return undefined;
    try {
      const run = await getRunForExecution(runId);
      if (run.status !== "queued" && run.status !== "running") return undefined;
      const recorder = this.createRecorder();
      const checkpoint =
        (await recorder.loadCheckpoint(runId)) ??
        (options.initialState ? { runId, seq: 0, state: options.initialState } : null);
      const done = this.execute(
        runId,
        { workspaceId: run.workspaceId, trigger: run.trigger },
        (common) =>
          runWorkflow(run.compiled, run.inputs, {
            ...common,
            workflowId: run.workflowId,
            versionId: run.versionId ?? undefined,
            resumeFrom: checkpoint ?? undefined,
            textDeltas: options.textDeltas,
          }),
        { recorder },
      );
      return { done: done.catch(() => undefined) };
    } catch (error) {
      await endRun(runId, "failed", "resume_failed", error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  /** Aborts a run executing in this process (a cancel from another process); false when it is not here. */
  abort(runId: string, reason = "Cancelled by a user."): boolean {
    const active = this.active.get(runId);
    if (!active) return false;
    active.controller.abort(new Error(reason));
    return true;
  }

  /** Settles when the run executing in this process ends or waits; undefined when it is not here. */
  whenSettled(runId: string): Promise<void> | undefined {
    return this.active.get(runId)?.done;
  }

  /** Ids of the runs executing in this process. */
  activeRunIds(): string[] {
    return [...this.active.keys()];
  }

  private createRecorder(): PrismaRunRecorder {
    return new PrismaRunRecorder(database(), this.provider);
  }

  /**
   * Runs `runner` in the background with this service's recorder, services, cancellation and
   * event fan-out. Whatever happens, the run ends in a terminal status (or waiting).
   */
  private execute(
    runId: string,
    run: { workspaceId: string; trigger: RunTrigger },
    runner: (common: CommonRunOptions) => Promise<RunResult>,
    options: { recorder?: PrismaRunRecorder; rethrow?: boolean; toolFixture?: ToolFixture } = {},
  ): Promise<void> {
    const { workspaceId } = run;
    const context: RunObservationContext = { runId, workspaceId, trigger: run.trigger };
    this.contexts.set(runId, context);
    const controller = new AbortController();
    const recorder = options.recorder ?? this.createRecorder();
    const done = (async () => {
      let engineStarted = false;
      try {
        const services = await createEngineServices({
          workspaceId,
          toolFixture: options.toolFixture,
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
            this.emit(event, context);
          },
        });
        await this.ensureTerminal(runId, result.status, recorder);
      } catch (error) {
        if (options.rethrow && !engineStarted) throw error;
        // The engine promises not to throw; this guards the promise anyway so a run never stays running.
        const message = error instanceof Error ? error.message : String(error);
        await recorder.flush().catch(() => undefined);
        await this.endOutsideEngine(runId, "failed", "engine_crashed", message).catch(() => undefined);
      } finally {
        this.active.delete(runId);
        this.contexts.delete(runId);
      }
    })();
    this.active.set(runId, { controller, done: done.catch(() => undefined) });
    return done;
  }

  /**
   * Ends a run the engine is not running (cancelled while waiting, or the engine crashed) and tells
   * SSE subscribers, whose streams close on run-end. The seq sorts after any real event.
   */
  async endOutsideEngine(runId: string, status: "failed" | "cancelled", code: string, message: string): Promise<void> {
    await endRun(runId, status, code, message);
    // Observers count the run's end under its trigger: known while it runs here, else from its row.
    const context =
      this.contexts.get(runId) ??
      (await getRunForExecution(runId)
        .then((row): RunObservationContext => ({ runId, workspaceId: row.workspaceId, trigger: row.trigger }))
        .catch(() => undefined));
    this.emit(
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
      context,
    );
  }

  /** Delivers an event to this process's subscribers and the observers (which must not throw). */
  private emit(event: RunEvent, context: RunObservationContext | undefined): void {
    this.bus.publish(event);
    this.options.publish?.(event);
    if (!context) return;
    for (const observer of this.options.observers ?? []) {
      try {
        observer.onEvent?.(event, context);
      } catch {
        // An observer's bug must not break a run.
      }
    }
  }

  /**
   * The recorder writes the final status; when it cannot tell that the batch carrying it landed
   * (e.g. a failed last flush), the row is read and corrected here.
   */
  private async ensureTerminal(runId: string, status: RunStatus, recorder: PrismaRunRecorder): Promise<void> {
    if (recorder.recordedStatus(runId) === status) return;
    const row = await database().run.findUnique({ where: { id: runId }, select: { status: true } });
    if (row && (row.status === "running" || row.status === "queued") && status !== "running") {
      await database().run.update({ where: { id: runId }, data: { status, endedAt: new Date() } });
    }
  }
}
