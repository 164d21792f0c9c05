import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { listWorkflows } from "../db/workflow-repository";
import { testDocument, testEdge, testNode } from "../workflow/testing/build-document";
import { RunService } from "./run-service";

/** start → ask (LLM, pinned) → shout (template) → end. */
function pinnedDocument() {
  return testDocument(
    [
      testNode("start", "start", { inputs: [{ name: "query", type: "string", required: false }] }),
      testNode("ask", "llm", {
        model: { provider: "default", model: "gpt-4o-mini" },
        userPrompt: "Say hi to {{start.query}}",
        pin: { outputs: { text: "pinned answer" }, source: "mock" },
      }),
      testNode("shout", "template", { template: "{{ask.text}}!" }),
      testNode("end", "end", { outputs: [{ name: "answer", value: "{{shout.text}}" }] }),
    ],
    [testEdge("start", "ask"), testEdge("ask", "shout"), testEdge("shout", "end")],
  );
}

describe("pinned node outputs", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowId: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }))
      .workspaceId;
    workflowId = (await listWorkflows(workspaceId))[0]!.id;
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });
  afterAll(async () => {
    process.env = saved;
    await test?.dispose();
  });

  it("editor runs skip a pinned node, pass its outputs on and record it as pinned, with no model call", async () => {
    const { runId, done } = await new RunService().start({
      workspaceId,
      workflowId,
      document: pinnedDocument(),
      inputs: { query: "Ada" },
      trigger: "editor",
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.run.outputs).toEqual({ answer: "pinned answer!" });
    expect(result?.run.usesDemoModel).toBe(false);
    const ask = result?.nodeRuns.find((row) => row.nodeId === "ask");
    expect(ask).toMatchObject({ status: "succeeded", outputs: { text: "pinned answer" }, tokensIn: 0, tokensOut: 0 });
    expect(ask?.processData).toMatchObject({ pinned: true, pinSource: "mock" });
  });

  it("API runs of the same document ignore the pin and execute the node", async () => {
    const { runId, done } = await new RunService().start({
      workspaceId,
      workflowId,
      document: pinnedDocument(),
      inputs: { query: "Ada" },
      trigger: "api",
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.run.usesDemoModel).toBe(true);
    expect(result?.run.outputs).not.toEqual({ answer: "pinned answer!" });
    const ask = result?.nodeRuns.find((row) => row.nodeId === "ask");
    expect((ask?.processData as Record<string, unknown> | null)?.pinned).toBeUndefined();
  });

  it("single-node runs read a pinned upstream node's pin, not the prefilled value", async () => {
    const { runId, done } = await new RunService().startSingleNode({
      workspaceId,
      workflowId,
      document: pinnedDocument(),
      nodeId: "shout",
      variables: { start: { query: "Ada" }, ask: { text: "stale prefill" } },
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.nodeRuns.find((row) => row.nodeId === "shout")?.outputs).toEqual({ text: "pinned answer!" });
  });
});
