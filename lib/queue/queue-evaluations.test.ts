import { describe, expect, it } from "vitest";
import { getEvaluationRun } from "../db/evaluation-repository";
import { requestJson } from "./testing/processes";
import { useQueueTestContext, waitFor } from "./testing/queue-cluster";

const redisUrl = process.env.TRELLIS_TEST_REDIS_URL;
const postgresUrl = process.env.TRELLIS_TEST_POSTGRES_URL;

/** Short, so the test waits seconds: the heartbeat renews every second, sweeps look every 1.5 s. */
const LEASE_MS = 3000;

/**
 * Evaluations in queue mode: the loop runs in the web process that started it (its trials are
 * runs on the workers). Killing that process ends its evaluation `failed` evaluation_interrupted
 * within the lease, found by another process's sweep, while another web process's evaluation,
 * whose lease is renewed, goes on untouched.
 */
describe.skipIf(!redisUrl || !postgresUrl)("queue mode evaluations", { timeout: 240_000 }, () => {
  // Each trial makes two slow calls, so an evaluation of many trials outlives the test's steps.
  const context = useQueueTestContext("evaluations", { lockMs: 2000, shutdownMs: 2000, effectDelayMs: 250 });
  const cluster = context.cluster;
  const leaseEnvironment = { TRELLIS_EVALUATION_LEASE_MS: String(LEASE_MS) };

  const trialCount = (evaluationRunId: string) => context.test.db.evaluationTrial.count({ where: { evaluationRunId } });

  it("a killed web process's evaluation ends evaluation_interrupted within the lease; a live one is untouched", async () => {
    const worker = await cluster.startWorker({ ...leaseEnvironment, TRELLIS_WORKER_CONCURRENCY: "4" });
    const doomed = await cluster.startWebProcess(leaseEnvironment);
    const survivor = await cluster.startWebProcess(leaseEnvironment);
    const start = async (port: number) => {
      const answer = await requestJson(port, "POST", "/evaluations", {
        workflowId: context.effectWorkflowId,
        cases: [{ id: "slow", inputs: { items: [1, 2] } }],
        trials: 60,
        concurrency: 1,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return String(answer.body.evaluationId);
    };
    const live = await start(survivor.port);
    const killed = await start(doomed.port);
    expect(await getEvaluationRun(killed)).toMatchObject({ status: "running" });
    expect((await getEvaluationRun(killed))?.runnerId).not.toBe((await getEvaluationRun(live))?.runnerId);

    // Both really run (trials recorded) before the kill.
    // (Generous: on a loaded machine the processes start slowly.)
    await waitFor(
      async () => ((await trialCount(killed)) > 0 && (await trialCount(live)) > 0 ? true : undefined),
      120_000,
    );
    await doomed.process.stop("SIGKILL");
    const killedAt = Date.now();

    const interrupted = await waitFor(async () => {
      const row = await getEvaluationRun(killed);
      return row?.status === "running" ? undefined : row;
    }, 30_000);
    const elapsedMs = Date.now() - killedAt;
    expect(interrupted).toMatchObject({ status: "failed", errorCode: "evaluation_interrupted" });
    expect(interrupted?.endedAt).toBeInstanceOf(Date);
    // The lease lapses at most LEASE_MS after the kill; a sweep looks every LEASE_MS / 2 (+ slack for a busy machine).
    expect(elapsedMs).toBeLessThan(LEASE_MS * 1.5 + 3000);
    const finishedBefore = await trialCount(killed);
    expect(finishedBefore).toBeGreaterThan(0);

    // The survivor's evaluation outlived its first lease several times over and is still running, renewed.
    const kept = await getEvaluationRun(live);
    expect(kept?.status).toBe("running");
    expect(Date.now() - kept!.startedAt.getTime()).toBeGreaterThan(LEASE_MS);
    expect(kept!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    const trialsNow = await trialCount(live);
    await waitFor(async () => ((await trialCount(live)) > trialsNow ? true : undefined), 30_000);
    expect((await getEvaluationRun(live))?.status).toBe("running");

    // It ends as its own process decides: cancelled, with no interruption code.
    const cancelled = await requestJson(survivor.port, "POST", `/evaluations/${live}/cancel`, {});
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await getEvaluationRun(live)).toMatchObject({ status: "cancelled", errorCode: null });
    // A sweep of the survivor or of the worker found it (whichever looked first).
    expect(survivor.process.output() + worker.output()).toContain(`interrupted evaluation(s) failed: ${killed}`);
  });
});
