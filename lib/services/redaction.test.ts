import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProvider } from "../db/provider-repository";
import { PrismaRunRecorder } from "../db/run-recorder";
import { createRun } from "../db/run-repository";
import { createWorkflow } from "../db/workflow-repository";
import { MemoryRunRecorder } from "../engine/memory-recorder";
import { runWorkflow } from "../engine/run-workflow";
import { WorkflowBuilder } from "../engine/testing";
import { type FakeOpenAIServer, fakeScenarios, startFakeOpenAIServer } from "../llm/fake-server";
import type { RunEvent } from "../runs/run-events";
import { createEngineServices } from "./engine-services";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// Secrets never leak through errors (issue 11): a provider that echoes the API key in its 401
// message gets it masked in every event, record, checkpoint and the run result — in memory and in
// the SQLite database — by the run's one redaction step (EngineServices.secrets -> the emitter).

const API_KEY = "sk-test-0123456789abcdefREDACTME";

function workflow() {
  return new WorkflowBuilder()
    .add("start", "start", {})
    .add("llm", "llm", {
      model: { provider: "echo", model: "gpt-4o-mini" },
      userPrompt: "Hi",
      errorStrategy: "default-output",
      defaultOutput: { text: "" },
    })
    .add("end", "end", { outputs: [{ name: "why", value: "{{llm.error.message}}" }] })
    .chain("start", "llm", "end")
    .build();
}

describe("an echoed provider key never appears in any event or record", () => {
  let test: OwnerWorkspace;
  let server: FakeOpenAIServer;
  let workspaceId: string;
  let userId: string;
  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", {
      adminEmail: "a@example.test",
      adminPassword: "pw-123456",
      workspaceName: "T",
    });
    ({ workspaceId, ownerId: userId } = test);
    server = await startFakeOpenAIServer();
    await saveProvider(workspaceId, "echo", { baseURL: server.url, apiKey: API_KEY });
  });
  afterAll(async () => {
    await server?.close();
    await test?.dispose();
  });

  it("the workspace's services list the stored key as a secret", async () => {
    const services = await createEngineServices({ workspaceId });
    expect(services.secrets).toContain(API_KEY);
  });

  it("in memory: events, emitted events, checkpoints and the result are masked", async () => {
    server.script(fakeScenarios.echoKey401());
    const recorder = new MemoryRunRecorder();
    const emitted: RunEvent[] = [];
    const result = await runWorkflow(
      workflow(),
      {},
      {
        runId: "memory-run",
        recorder,
        services: await createEngineServices({ workspaceId }),
        onEvent: (e) => emitted.push(e),
      },
    );
    // The upstream really echoed it.
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(result.status).toBe("partial");
    expect(String(result.outputs.why)).toContain("Incorrect API key provided: [redacted]");
    const everything = JSON.stringify({ result, events: recorder.events, emitted, runs: recorder.nodeRuns() });
    expect(everything).toContain("[redacted]");
    expect(everything).not.toContain(API_KEY);
    expect(JSON.stringify(recorder.checkpoints ?? [])).not.toContain(API_KEY);
  });

  it("in SQLite: no table, WAL or file byte holds the key in plain text", async () => {
    server.script(fakeScenarios.echoKey401());
    const compiled = workflow();
    const { id: workflowId } = await createWorkflow(workspaceId, { name: "Echo", userId });
    const runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled,
      inputs: {},
      usesDemoModel: false,
    });
    const recorder = new PrismaRunRecorder(test.db, "sqlite", { flushIntervalMs: 1 });
    const result = await runWorkflow(
      compiled,
      {},
      { runId, recorder, services: await createEngineServices({ workspaceId }) },
    );
    await recorder.flush();
    expect(result.status).toBe("partial");
    const filePath = test.config.provider === "sqlite" ? test.config.filePath : "";
    const bytes = [filePath, `${filePath}-wal`]
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file).toString("latin1"))
      .join("");
    expect(bytes).toContain("Incorrect API key provided: [redacted]");
    expect(bytes).not.toContain(API_KEY);
  });

  it("a key the model streams back split across chunks is masked in the deltas and the answer", async () => {
    // The upstream echoes the key in pieces that each look harmless: "…key is sk-te" + "st-01…".
    const cut = 5;
    server.script({
      textChunks: ["Your key is ", API_KEY.slice(0, cut), API_KEY.slice(cut, 12), API_KEY.slice(12), ", keep it safe."],
    });
    const recorder = new MemoryRunRecorder();
    const emitted: RunEvent[] = [];
    const result = await runWorkflow(
      new WorkflowBuilder()
        .add("start", "start", {})
        .add("llm", "llm", { model: { provider: "echo", model: "gpt-4o-mini" }, userPrompt: "Hi" })
        .add("end", "end", { outputs: [{ name: "text", value: "{{llm.text}}" }] })
        .chain("start", "llm", "end")
        .build(),
      {},
      {
        runId: "stream-run",
        recorder,
        services: await createEngineServices({ workspaceId }),
        onEvent: (e) => emitted.push(e),
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.text).toBe("Your key is [redacted], keep it safe.");
    const streamed = emitted
      .filter((event) => event.type === "node-delta" && event.kind === "text")
      .map((event) => (event.type === "node-delta" ? event.delta : ""))
      .join("");
    // Nothing of the text is lost, and the pieces joined are masked too.
    expect(streamed).toBe("Your key is [redacted], keep it safe.");
    const everything = JSON.stringify({ events: recorder.events, emitted });
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain(API_KEY.slice(cut, 12));
  });
});
