import "server-only";
import { readDatabaseConfig } from "../db/database-config";
import { database } from "../db/prisma-client";
import { createPrismaRunRecorder } from "../db/run-recorder";
import {
  createRun,
  findInterruptedRuns,
  getRunForExecution,
  listRunEvents,
  markRunFailed,
  markRunUsesDemoModel,
} from "../db/run-repository";
import type { RunRecorder } from "../engine/recorder";
import type { RunEvent } from "../engine/run-events";
import type { RunStatus, RunTrigger } from "../engine/run-status";
import { runWorkflow } from "../engine/run-workflow";
import { compileWorkflow } from "../workflow/compile";
import type { CompiledWorkflow } from "../workflow/compiled";
import { TrellisError } from "../workflow/errors";
import { createEngineServices } from "./engine-services";
import { RunEventBus } from "./run-bus";

/** The document did not compile; `issues` says where. */
export class WorkflowInvalidError extends TrellisError {
  /** Compile issues with node, field path and code. */
  readonly issues: unknown[];

  constructor(issues: unknown[]) {
    super("workflow_invalid", "The workflow has errors; fix them before running.");
    this.issues = issues;
  }
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
  private readonly bus = new RunEventBus();
  private readonly active = new Map<string, ActiveRun>();
  private readonly provider = readDatabaseConfig().provider;

  /** Compiles and starts a run; resolves with its id as soon as the Run row exists. */
  async start(input: StartRunInput): Promise<{ runId: string; done: Promise<void> }> {
    const compiled = compileWorkflow(input.document);
    if (!compiled.ok) throw new WorkflowInvalidError(compiled.issues);
    const runId = await createRun({
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      versionId: input.versionId,
      trigger: input.trigger,
      compiled: compiled.workflow,
      inputs: input.inputs,
      usesDemoModel: false,
    });
    const done = this.execute(runId, input.workspaceId, compiled.workflow, input.inputs, {
      workflowId: input.workflowId,
      versionId: input.versionId,
    });
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
      await markRunFailed(runId, "run_cancelled", "Cancelled by a user while waiting.");
      await database().run.update({ where: { id: runId }, data: { status: "cancelled" } });
      return;
    }
    throw new RunNotActiveError(runId, run.status);
  }

  /** Answers a waiting human-input node and continues the run from its checkpoint. */
  async resume(runId: string, nodeId: string, answer: Record<string, unknown>): Promise<{ done: Promise<void> }> {
    const run = await getRunForExecution(runId);
    if (run.status !== "waiting" || this.active.has(runId)) throw new RunNotActiveError(runId, run.status);
    const recorder = this.createRecorder();
    const checkpoint = await recorder.loadCheckpoint(runId);
    if (!checkpoint) throw new RunNotActiveError(runId, "missing its checkpoint");
    const done = this.execute(runId, run.workspaceId, run.compiled, run.inputs, {
      workflowId: run.workflowId,
      versionId: run.versionId ?? undefined,
      recorder,
      resumeFrom: checkpoint,
      humanAnswer: { nodeId, answer, timedOut: false },
    });
    return { done };
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
        void this.execute(runId, run.workspaceId, run.compiled, run.inputs, {
          workflowId: run.workflowId,
          versionId: run.versionId ?? undefined,
          recorder,
          resumeFrom: checkpoint ?? undefined,
        });
        resumed.push(runId);
      } catch (error) {
        await markRunFailed(runId, "resume_failed", error instanceof Error ? error.message : String(error));
      }
    }
    return resumed;
  }

  private createRecorder(): RunRecorder {
    return createPrismaRunRecorder(database(), this.provider);
  }

  private execute(
    runId: string,
    workspaceId: string,
    compiled: CompiledWorkflow,
    inputs: Record<string, unknown>,
    options: {
      workflowId?: string;
      versionId?: string;
      recorder?: RunRecorder;
      resumeFrom?: Parameters<typeof runWorkflow>[2]["resumeFrom"];
      humanAnswer?: Parameters<typeof runWorkflow>[2]["humanAnswer"];
    },
  ): Promise<void> {
    const controller = new AbortController();
    const recorder = options.recorder ?? this.createRecorder();
    const done = (async () => {
      try {
        const services = await createEngineServices({
          workspaceId,
          onDemoModelUsed: () => void markRunUsesDemoModel(runId).catch(() => undefined),
        });
        const result = await runWorkflow(compiled, inputs, {
          runId,
          recorder,
          services,
          signal: controller.signal,
          workflowId: options.workflowId,
          versionId: options.versionId,
          resumeFrom: options.resumeFrom,
          humanAnswer: options.humanAnswer,
          onEvent: (event) => this.bus.publish(event),
        });
        await this.ensureTerminal(runId, result.status);
      } catch (error) {
        // The engine promises not to throw; this guards the promise anyway so a run never stays running.
        const message = error instanceof Error ? error.message : String(error);
        await recorder.flush().catch(() => undefined);
        await markRunFailed(runId, "engine_crashed", message).catch(() => undefined);
        this.bus.publish({
          type: "run-end",
          runId,
          seq: Number.MAX_SAFE_INTEGER,
          at: Date.now(),
          status: "failed",
          outputs: {},
          error: { code: "engine_crashed", message },
          usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
          steps: 0,
          durationMs: 0,
        });
      } finally {
        this.active.delete(runId);
      }
    })();
    this.active.set(runId, { controller, done });
    return done;
  }

  /** The recorder writes the final status; this double-checks it landed (e.g. a failed last flush). */
  private async ensureTerminal(runId: string, status: RunStatus): Promise<void> {
    const row = await database().run.findUnique({ where: { id: runId }, select: { status: true } });
    if (row && (row.status === "running" || row.status === "queued") && status !== "running") {
      await database().run.update({ where: { id: runId }, data: { status, endedAt: new Date() } });
    }
  }
}

const globalForRuns = globalThis as unknown as { trellisRunService?: RunService };

/** The process-wide run service. */
export function runService(): RunService {
  globalForRuns.trellisRunService ??= new RunService();
  return globalForRuns.trellisRunService;
}
