import "server-only";
import { listWorkspaceIds } from "../db/member-repository";
import { readExecutionMode } from "../queue/queue-config";
import { startDemoApiStub } from "../tools/demo-stub/server";
import { isDemoMode } from "./demo-mode";
import { workspaceSecrets } from "./engine-services";
import { startEvaluationSweep } from "./evaluation-lease";
import { applyHeapSettings } from "./heap-settings";
import { installLogRedaction, registerLogSecrets } from "./log-redaction";
import { startRetentionJob } from "./retention";
import { serviceRoot } from "./root";
import { startScheduler } from "./scheduler";

let started: Promise<void> | undefined;

/**
 * Runs once per server process (from instrumentation.ts): in demo mode start the local demo API
 * stub and point the demo tools at it; then resume runs a crash left running, and start the
 * scheduler (workflows' cron schedules; `TRELLIS_SCHEDULER=off` leaves it to another process).
 * In queue mode (`TRELLIS_EXECUTION=queue`) a web process does neither: workers recover
 * interrupted runs (BullMQ's stall check) and run the scheduler (`scripts/worker.ts`).
 * The run-history retention job starts too (`TRELLIS_RETENTION=off` turns it off), and in both
 * modes the evaluation sweep (./evaluation-lease: evaluations whose process died end interrupted).
 */
export function startServerServices(): Promise<void> {
  started ??= (async () => {
    applyHeapSettings();
    installLogRedaction();
    registerLogSecrets([
      process.env.OPENAI_API_KEY,
      process.env.TRELLIS_SECRET_KEY,
      ...(process.env.TRELLIS_SECRET_KEY_PREVIOUS ?? "").split(","),
    ]);
    if (isDemoMode()) {
      const port = Number(process.env.TRELLIS_DEMO_API_PORT ?? 4020);
      try {
        const stub = await startDemoApiStub({ port });
        for (const [name, value] of Object.entries(stub.environment)) process.env[name] ??= value;
        console.log(`Demo mode: offline demo model; example web APIs answered by the local stub at ${stub.origin}`);
      } catch (error) {
        console.error(
          `Demo API stub could not start on port ${port}: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
    // Stored secrets are masked in the log from the first line on, not only once a run loaded them.
    for (const workspaceId of await listWorkspaceIds().catch(() => [] as string[])) {
      await workspaceSecrets(workspaceId).catch(() => undefined);
    }
    // Run-history retention (claimed per workspace in the database, so safe in every process and mode).
    if (process.env.TRELLIS_RETENTION?.trim().toLowerCase() !== "off") startRetentionJob();
    // Evaluations run in the web process that started them, in both modes, under a lease: this
    // process ends those whose process died (a restart, or another web process killed).
    startEvaluationSweep();
    if (readExecutionMode() === "queue") {
      console.log("Queue mode: runs execute on workers (npm run worker); the scheduler runs there too.");
      return;
    }
    const resumed = await serviceRoot().runs.resumeInterrupted();
    if (resumed.length) console.log(`Resumed ${resumed.length} interrupted run(s): ${resumed.join(", ")}`);
    if (process.env.TRELLIS_SCHEDULER?.trim().toLowerCase() !== "off") startScheduler();
  })();
  return started;
}
