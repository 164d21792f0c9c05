import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { createWorkflow } from "../db/workflow-repository";
import { RunService } from "./run-service";
import { approvalDocument, countingTemplateExecutor, slowChainDocument } from "./testing/durable-fixtures";

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A child process under a loaded machine can take a while to start; these tests wait on state, not time.
describe("durable runs across a SIGKILL", { timeout: 180_000 }, () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowId: string;
  let folder: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }))
      .workspaceId;
    const admin = await test.db.user.findFirstOrThrow();
    workflowId = (await createWorkflow(workspaceId, { name: "Durable", userId: admin.id, draft: slowChainDocument() }))
      .id;
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-durable-"));
  });
  afterEach(() => {
    child?.kill("SIGKILL");
  });
  afterAll(async () => {
    await test?.dispose();
  });

  function startChild(
    scenario: "chain" | "approval",
    countFile: string,
  ): { child: ChildProcess; runId: Promise<string> } {
    if (test.config.provider !== "sqlite") throw new Error("sqlite only");
    // Node itself, not an npx wrapper: SIGKILL must hit the process that runs the workflow.
    const process_ = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", "lib/services/testing/crash-child.ts"],
      {
        env: {
          ...process.env,
          DATABASE_URL: test.config.url,
          WORKSPACE_ID: workspaceId,
          WORKFLOW_ID: workflowId,
          COUNT_FILE: countFile,
          CRASH_SCENARIO: scenario,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = process_;
    let stderr = "";
    process_.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const runId = new Promise<string>((resolve, reject) => {
      process_.stdout?.on("data", (chunk) => {
        const match = /run (\S+)/.exec(String(chunk));
        if (match) resolve(match[1]!);
      });
      process_.on("exit", (code) => reject(new Error(`child exited ${code}: ${stderr}`)));
    });
    return { child: process_, runId };
  }

  it("resumes a run left running by a killed process without re-running finished nodes", async () => {
    const countFile = path.join(folder, "chain.count");
    fs.writeFileSync(countFile, "");
    const started = startChild("chain", countFile);
    const runId = await started.runId;
    // Kill once two slow nodes have finished and a third is in flight.
    await waitFor(async () => {
      const result = await getRunWithNodeRuns(runId);
      const finished =
        result?.nodeRuns.filter((row) => row.nodeType === "template" && row.status === "succeeded") ?? [];
      return finished.length >= 2 ? true : undefined;
    });
    started.child.kill("SIGKILL");
    await new Promise((resolve) => started.child.once("exit", resolve));
    // Nothing runs the workflow any more: the executions log stays still past a node's duration.
    const executionsAtKill = fs.readFileSync(countFile, "utf8");
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(fs.readFileSync(countFile, "utf8")).toBe(executionsAtKill);

    const afterCrash = await getRunWithNodeRuns(runId);
    expect(afterCrash?.run.status).toBe("running");
    const checkpoint = await test.db.runCheckpoint.findUnique({ where: { id: runId } });
    expect(checkpoint).not.toBeNull();
    // The guarantee: a node whose success reached the checkpoint never runs again.
    const finishedBeforeCrash = Object.keys(
      (checkpoint!.state as { finished: Record<string, unknown> }).finished,
    ).filter((id) => id.startsWith("t"));

    const service = new RunService({ executors: { template: countingTemplateExecutor(countFile, 20) } });
    expect(await service.resumeInterrupted()).toContain(runId);
    const final = await waitFor(async () => {
      const result = await getRunWithNodeRuns(runId);
      return result && !["running", "queued"].includes(result.run.status) ? result : undefined;
    });
    expect(final.run.status).toBe("succeeded");
    expect(final.run.outputs).toEqual({ result: "1+1+1+1+1" });

    const executions = fs.readFileSync(countFile, "utf8").trim().split("\n");
    const counts = new Map<string, number>();
    for (const id of executions) counts.set(id, (counts.get(id) ?? 0) + 1);
    // Nodes whose success was checkpointed before the kill never run again.
    for (const id of finishedBeforeCrash) expect(counts.get(id), `node ${id} re-ran`).toBe(1);
    for (const id of ["t1", "t2", "t3", "t4", "t5"]) expect(counts.get(id)).toBeGreaterThanOrEqual(1);
    expect(finishedBeforeCrash.length).toBeGreaterThanOrEqual(2);
    expect(executions.length).toBeLessThan(5 + 5);
    const succeeded = new Set(final.nodeRuns.filter((row) => row.status === "succeeded").map((row) => row.nodeId));
    for (const id of ["start", "t1", "t2", "t3", "t4", "t5", "end"]) expect(succeeded.has(id)).toBe(true);
  });

  it("keeps a waiting run across a SIGKILL and continues it with a validated answer", async () => {
    const countFile = path.join(folder, "approval.count");
    fs.writeFileSync(countFile, "");
    const started = startChild("approval", countFile);
    const runId = await started.runId;
    await waitFor(async () => ((await getRunWithNodeRuns(runId))?.run.status === "waiting" ? true : undefined));
    started.child.kill("SIGKILL");
    await new Promise((resolve) => started.child.once("exit", resolve));

    const service = new RunService({ executors: { template: countingTemplateExecutor(countFile, 5) } });
    // Interrupted-run recovery must leave waiting runs alone.
    expect(await service.resumeInterrupted()).not.toContain(runId);
    await expect(service.resume(runId, "approval", { comment: "no flag" })).rejects.toMatchObject({
      code: "invalid_answer",
    });
    await expect(service.resume(runId, "summary", { approved: true })).rejects.toMatchObject({
      code: "invalid_answer",
    });
    const { done } = await service.resume(runId, "approval", { approved: true, comment: "ok" });
    await done;
    const final = await getRunWithNodeRuns(runId);
    expect(final?.run.status).toBe("succeeded");
    expect(final?.run.outputs).toEqual({ summary: "approved=true comment=ok" });
    expect(fs.readFileSync(countFile, "utf8").trim().split("\n")).toEqual(["summary"]);
    expect(
      approvalDocument()
        .nodes.map((node) => node.id)
        .every((id) => final?.nodeRuns.some((row) => row.nodeId === id)),
    ).toBe(true);
  });
});
