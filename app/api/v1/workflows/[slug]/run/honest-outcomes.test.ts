import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { saveProvider } from "@/lib/db/provider-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { fakeScenarios } from "@/lib/llm/fake-server/scenarios";
import { getRunDetail } from "@/lib/services/runs";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "@/lib/workflow/document";
import { POST as cancel } from "../../../runs/[runId]/cancel/route";
import { POST } from "./route";

/**
 * Issue 11 through the published endpoint: what an API client is told when things go wrong,
 * against the project's fake OpenAI-compatible server driven by the real openai SDK.
 */
const PROVIDER_KEY = "sk-marker-4f1d9c2e7a5b3e8d";

function flow(middle: { type: string; data: Record<string, unknown> }): WorkflowDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "question", type: "string", required: true }] },
      },
      { id: "work", type: middle.type, position: { x: 200, y: 0 }, data: { title: "Work", ...middle.data } },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: {
          title: "End",
          outputs: [{ name: "answer", value: middle.type === "llm" ? "{{work.text}}" : "{{work.answer}}" }],
        },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "work" },
      { id: "e2", source: "work", target: "end" },
    ],
  } as WorkflowDocument;
}

const model = { provider: "fake", model: "gpt-4o-mini" };
const llm = flow({ type: "llm", data: { model, userPrompt: "{{start.question}}" } });
const agent = (extra: Record<string, unknown>) =>
  flow({ type: "agent", data: { model, tools: ["calculator"], query: "{{start.question}}", ...extra } });

describe("honest outcomes through the published endpoint", () => {
  let test: TestDatabase;
  let server: FakeOpenAIServer;
  let secret: string;

  async function publish(name: string, document: WorkflowDocument, workspaceId: string, userId: string) {
    const { id } = await createWorkflow(workspaceId, { name, userId, draft: document });
    await publishWorkflow(id, { note: "", userId });
  }

  function call(slug: string, body: unknown): Promise<Response> {
    const request = new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: JSON.stringify(body),
    });
    return POST(request, { params: Promise.resolve({ slug }) });
  }

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    server = await startFakeOpenAIServer();
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    await saveProvider(workspaceId, "fake", { baseURL: server.url, apiKey: PROVIDER_KEY });
    await publish("Ask", llm, workspaceId, ownerId);
    await publish(
      "Slow agent",
      agent({ mode: "function_call", limits: { maxIterations: 5, deadlineMs: 300 } }),
      workspaceId,
      ownerId,
    );
    await publish("Prompt caller", agent({ mode: "prompt_call" }), workspaceId, ownerId);
    await publish("Hung", agent({ mode: "function_call", limits: { maxIterations: 5 } }), workspaceId, ownerId);
    secret = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server?.close();
    await test?.dispose();
  });

  it("a hung model past the agent's deadline is failed with deadline_exceeded and the node, never succeeded", async () => {
    server.script(fakeScenarios.hung());
    const response = await call("slow-agent", { inputs: { question: "Rain?" } });
    const body = await response.json();
    expect(body.status).toBe("failed");
    expect(body.error).toMatchObject({ code: "deadline_exceeded", nodeId: "work" });
    expect(body.error.hint).toBeTruthy();
    // The run page shows the same hint (the run detail reads it from the stored run-end event).
    const detail = await getRunDetail(
      { kind: "system", workspaceId: (await test.db.workspace.findFirstOrThrow()).id, actor: "startup" },
      body.runId,
    );
    expect(detail.errorHint).toBe(body.error.hint);
  });

  it("an unparsable prompt-call reply is partial with parse_failed, and says what is missing", async () => {
    server.script(fakeScenarios.answer("I think the answer is maybe something, not in the protocol"));
    const body = await (await call("prompt-caller", { inputs: { question: "2+2?" } })).json();
    expect(body.status).toBe("partial");
    expect(body.error.code).toBe("parse_failed");
    expect(body.error.missing?.length).toBeGreaterThan(0);
  });

  it("429s are retried, the answer succeeds, and each attempt is on the node run's model call record", async () => {
    server.script(...fakeScenarios.failTimes(2, 429), fakeScenarios.answer("Forty-two.", 50, 5));
    const body = await (await call("ask", { inputs: { question: "Meaning?" } })).json();
    expect(body).toMatchObject({ status: "succeeded", outputs: { answer: "Forty-two." } });
    expect(body.usage).toMatchObject({ inputTokens: 50, outputTokens: 5 });
    const detail = await getRunDetail(
      { kind: "system", workspaceId: (await test.db.workspace.findFirstOrThrow()).id, actor: "startup" },
      body.runId,
    );
    const calls = (detail.nodeRuns.find((row) => row.nodeId === "work")?.processData as { modelCalls?: unknown[] })
      ?.modelCalls as { provider: string; modelId: string; attempts: { status: string; httpStatus?: number }[] }[];
    expect(calls[0]).toMatchObject({ provider: "fake", modelId: "gpt-4o-mini", status: "succeeded" });
    expect(calls[0]!.attempts.map((attempt) => attempt.httpStatus ?? attempt.status)).toEqual([429, 429, "ok"]);
  });

  it("a provider that echoes the API key in its error never gets it into the answer, the events or the database", async () => {
    server.script(fakeScenarios.echoKey401());
    const response = await call("ask", { inputs: { question: "Hi" } });
    const text = await response.text();
    expect(JSON.parse(text).status).toBe("failed");
    expect(text).not.toContain(PROVIDER_KEY);
    const { runId } = JSON.parse(text);
    const [runRow, nodeRows, eventRows] = await Promise.all([
      test.db.run.findUniqueOrThrow({ where: { id: runId } }),
      test.db.nodeRun.findMany({ where: { runId } }),
      test.db.runEventRow.findMany({ where: { runId } }),
    ]);
    expect(JSON.stringify([runRow, nodeRows, eventRows])).not.toContain(PROVIDER_KEY);
  });

  it("a cancelled run ends cancelled, and so does its running node run", async () => {
    server.script(fakeScenarios.hung());
    const started = await (await call("hung", { inputs: { question: "Wait" }, timeout_seconds: 1 })).json();
    expect(started.status).toBe("running");
    const request = new Request("http://localhost/api/v1/runs/x/cancel", {
      method: "POST",
      headers: { authorization: `Bearer ${secret}` },
    });
    const cancelled = await (await cancel(request, { params: Promise.resolve({ runId: started.runId }) })).json();
    expect(cancelled.status).toBe("cancelled");
    const rows = await test.db.nodeRun.findMany({ where: { runId: started.runId, nodeId: "work" } });
    expect(rows.map((row) => row.status)).toEqual(["cancelled"]);
  });
});
