import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mcpSourceInputSchema } from "@/lib/contracts/tool-source-config";
import { createApiKey } from "@/lib/db/api-key-repository";
import { saveProvider } from "@/lib/db/provider-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createToolSource, saveMcpToolsSnapshot } from "@/lib/db/tool-source-repository";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { fakeScenarios } from "@/lib/llm/fake-server/scenarios";
import { closeAllMcpConnections } from "@/lib/services/mcp-connections";
import { type DemoApiStub, startDemoApiStub } from "@/lib/tools/demo-stub/server";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument, type WorkflowNode } from "@/lib/workflow/document";
import { MAX_ERROR_MESSAGE_CHARS } from "@/lib/workflow/errors";
import { reactBetExample } from "@/lib/workflow/examples/react-bet";
import { POST } from "./route";

/**
 * Issue 11's remaining published-endpoint cases: what an API client of
 * `POST /api/v1/workflows/:slug/run` is told, with the real openai SDK against the fake
 * OpenAI-compatible server, the demo web-API stub and a loopback HTTP server. The engine-level
 * twins of these live in lib/engine (usage-accounting, seed-003-bet, large-values) and
 * lib/services (lazy-tool-sources); here the whole stack answers: route, services, engine,
 * Prisma recorder, tool registry built from the workspace.
 */

type NodeSpec = { id: string; type: string; data: Record<string, unknown>; parentId?: string };

/** A document whose top-level nodes are chained in the order given (children only set parentId). */
function chained(nodes: NodeSpec[]): WorkflowDocument {
  const topLevel = nodes.filter((node) => !node.parentId);
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: nodes.map(
      (node, index) =>
        ({
          id: node.id,
          type: node.type,
          position: { x: index * 220, y: 0 },
          ...(node.parentId ? { parentId: node.parentId } : {}),
          data: { title: node.id, ...node.data },
        }) as WorkflowNode,
    ),
    edges: topLevel.slice(1).map((node, index) => ({
      id: `e${index}`,
      source: topLevel[index].id,
      target: node.id,
    })),
  };
}

const model = { provider: "fake", model: "gpt-4o-mini" };
const start = (inputs: unknown[] = []): NodeSpec => ({ id: "start", type: "start", data: { inputs } });
const end = (outputs: { name: string; value: unknown }[]): NodeSpec => ({ id: "end", type: "end", data: { outputs } });
const step = (id: string, tool: string, input: Record<string, unknown>) => ({ id, action: id, tool, input });

interface RunAnswer {
  runId: string;
  status: string;
  outputs: Record<string, unknown>;
  usage: { inputTokens: number; outputTokens: number; cost: number };
  error: { code: string; nodeId?: string; missing?: unknown[] } | null;
}

describe("honest outcomes through the published endpoint, continued", () => {
  let test: TestDatabase;
  let server: FakeOpenAIServer;
  let stub: DemoApiStub;
  let bodies: Server;
  let bodiesOrigin: string;
  let secret: string;
  const savedEnvironment = { ...process.env };

  async function publish(name: string, document: WorkflowDocument, workspaceId: string, userId: string) {
    const { id } = await createWorkflow(workspaceId, { name, userId, draft: document });
    await publishWorkflow(id, { note: "", userId });
  }

  async function call(slug: string, inputs: Record<string, unknown> = {}): Promise<RunAnswer> {
    const request = new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: JSON.stringify({ inputs }),
    });
    const response = await POST(request, { params: Promise.resolve({ slug }) });
    expect(response.headers.get("content-type")).toContain("application/json");
    return (await response.json()) as RunAnswer;
  }

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    server = await startFakeOpenAIServer();
    stub = await startDemoApiStub({ port: 0 });
    bodies = createServer((request, response) => {
      const size = Number(new URL(request.url ?? "/", "http://x").searchParams.get("bytes") ?? "0");
      const text = "a".repeat(size);
      response.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(text) });
      response.end(text);
    });
    await new Promise<void>((resolve) => bodies.listen(0, "127.0.0.1", resolve));
    bodiesOrigin = `http://127.0.0.1:${(bodies.address() as AddressInfo).port}`;
    // The built-in tools read these at call time, as `npm start` in demo mode sets them; the SSRF
    // guard stays on and lets only these two loopback servers in, as an operator would.
    Object.assign(process.env, stub.environment, {
      TRELLIS_HTTP_ALLOWLIST: `${new URL(stub.origin).host},${new URL(bodiesOrigin).host}`,
    });

    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    await saveProvider(workspaceId, "fake", { baseURL: server.url, apiKey: "sk-test" });
    // The same server behind a provider whose settings bound each attempt (settings → providers).
    await saveProvider(workspaceId, "bounded", {
      baseURL: server.url,
      apiKey: "sk-test",
      attemptTimeouts: { firstByteMs: 1500 },
    });
    const publishAs = (name: string, document: WorkflowDocument) => publish(name, document, workspaceId, ownerId);

    await publishAs(
      "Planner only",
      chained([
        start(),
        { id: "planner", type: "planner", data: { model, goal: "Rain in Athens?", tools: ["get_current_weather"] } },
        end([{ name: "steps", value: ["planner", "steps"] }]),
      ]),
    );
    await publishAs(
      "Replanner",
      chained([
        start(),
        {
          id: "planner",
          type: "planner",
          data: { model, goal: "Rain in Athens?", tools: ["get_current_weather"], maxReplans: 1 },
        },
        { id: "loop", type: "iteration", data: { input: ["planner", "steps"], outputSelector: ["call", "result"] } },
        {
          id: "call",
          type: "tool",
          parentId: "loop",
          data: { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" },
        },
        { id: "synth", type: "synthesizer", data: { model, prompt: "Answer", inputs: [["loop", "output"]] } },
        end([{ name: "answer", value: ["synth", "text"] }]),
      ]),
    );
    const bet = structuredClone(reactBetExample.document);
    const agent = bet.nodes.find((node) => node.id === "agent");
    if (!agent) throw new Error("the ReAct bet example has no agent node");
    Object.assign(agent.data, { mode: "function_call", model });
    await publishAs("Bet", bet);
    await publishAs(
      "Fetch",
      chained([
        start([{ name: "bytes", type: "number", required: true }]),
        { id: "fetch", type: "http", data: { method: "GET", url: `${bodiesOrigin}/?bytes={{start.bytes}}` } },
        end([{ name: "body", value: ["fetch", "body"] }]),
      ]),
    );
    await publishAs(
      "Compute",
      chained([
        start([{ name: "size", type: "number", required: true }]),
        {
          id: "code",
          type: "code",
          data: {
            code: 'function main({ size }) { return { result: "b".repeat(size) }; }',
            inputs: [{ name: "size", value: "{{start.size}}" }],
            outputs: [{ name: "result", type: "string" }],
          },
        },
        end([{ name: "result", value: ["code", "result"] }]),
      ]),
    );
    await publishAs(
      "Throw big",
      chained([
        start(),
        { id: "code", type: "code", data: { code: 'function main() { throw new Error("x".repeat(10000000)); }' } },
        end([{ name: "result", value: ["code", "result"] }]),
      ]),
    );
    await publishAs(
      "Ask",
      chained([
        start([{ name: "question", type: "string", required: true }]),
        { id: "ask", type: "llm", data: { model, userPrompt: "{{start.question}}" } },
        end([{ name: "answer", value: ["ask", "text"] }]),
      ]),
    );
    await publishAs(
      "Ask bounded",
      chained([
        start([{ name: "question", type: "string", required: true }]),
        {
          id: "ask",
          type: "llm",
          data: { model: { ...model, provider: "bounded" }, userPrompt: "{{start.question}}" },
        },
        end([{ name: "answer", value: ["ask", "text"] }]),
      ]),
    );
    await publishAs(
      "Ask node bounded",
      chained([
        start([{ name: "question", type: "string", required: true }]),
        {
          id: "ask",
          type: "llm",
          data: { model, userPrompt: "{{start.question}}", modelTimeouts: { firstByteMs: 1500 } },
        },
        end([{ name: "answer", value: ["ask", "text"] }]),
      ]),
    );
    await publishAs(
      "Remote echo",
      chained([
        start(),
        { id: "echo", type: "tool", data: { tool: "remote_echo", arguments: {} } },
        end([{ name: "result", value: ["echo", "result"] }]),
      ]),
    );
    // A tool source that cannot start, known from an earlier listing: it must fail only the node
    // that uses its tool, never the workspace's other runs.
    const broken = await createToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Gone",
        connection: { transport: "stdio", command: "/nonexistent/trellis-mcp-server" },
      }),
    );
    await saveMcpToolsSnapshot(workspaceId, broken.id, [
      { name: "remote_echo", description: "Echo", inputSchema: { type: "object" } },
    ]);
    secret = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    process.env = savedEnvironment;
    await closeAllMcpConnections();
    await server?.close();
    await stub?.close();
    await new Promise<void>((resolve) => (bodies ? bodies.close(() => resolve()) : resolve()));
    await test?.dispose();
  });

  it("a planner failing with invalid_plan answers failed with the code and the tokens its two calls used", async () => {
    server.script(fakeScenarios.answer("not a plan", 300, 30), fakeScenarios.answer("still not", 310, 31));
    const answer = await call("planner-only");
    expect(answer.status).toBe("failed");
    expect(answer.error).toMatchObject({ code: "invalid_plan", nodeId: "planner" });
    expect(answer.usage).toMatchObject({ inputTokens: 610, outputTokens: 61 });
    expect(server.requests).toHaveLength(2);
  });

  it("a replan is counted once: the run's usage is the sum of the three model calls", async () => {
    server.script(
      {
        text: JSON.stringify({ steps: [step("w1", "get_current_weather", { city: "Atlantis" })] }),
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      },
      {
        text: JSON.stringify({ steps: [step("w2", "get_current_weather", { city: "Athens" })] }),
        usage: { prompt_tokens: 400, completion_tokens: 40 },
      },
      fakeScenarios.answer("It rained in Athens.", 500, 50),
    );
    const answer = await call("replanner");
    expect(answer.status).toBe("succeeded");
    expect(answer.outputs.answer).toBe("It rained in Athens.");
    expect(server.requests).toHaveLength(3);
    expect(answer.usage).toMatchObject({ inputTokens: 1100, outputTokens: 110 });
  });

  it("seed 003, rain: the seed's argument names reach the tools, and their answers reach the model", async () => {
    server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city": "Athens"}' }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "convert_currency",
            arguments: '{"amount": 100, "from_currency": "EUR", "to_currency": "USD"}',
          },
        ],
      },
      { text: "It rained in Athens (3.2 mm), so you won: 108.50 USD." },
    );
    const answer = await call("bet", { city: "Athens", stake: 100 });
    expect(answer).toMatchObject({ status: "succeeded", outputs: { answer: expect.stringContaining("108.50 USD") } });
    const offered = server.requests[0].body.tools?.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["get_current_weather", "convert_currency"]));
    const toolMessages = server.requests[2].body.messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => JSON.parse(String(message.content)))).toEqual([
      expect.objectContaining({ city: "Athens", precipitation_mm: 3.2 }),
      expect.objectContaining({ from_currency: "EUR", to_currency: "USD", converted_amount: 108.5 }),
    ]);
  });

  it("seed 003, no rain: one weather call, no conversion, an early answer", async () => {
    server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city": "Cairo"}' }] },
      { text: "It did not rain in Cairo, so you lost the bet. No conversion needed." },
    );
    const answer = await call("bet", { city: "Cairo", stake: 100 });
    expect(answer.status).toBe("succeeded");
    expect(server.requests).toHaveLength(2);
    const toolMessages = server.requests[1].body.messages.filter((message) => message.role === "tool");
    expect(toolMessages).toHaveLength(1);
    expect(JSON.parse(String(toolMessages[0].content))).toMatchObject({ city: "Cairo", precipitation_mm: 0 });
  });

  it.each([70_000, 5_000_000])("an HTTP body of %i bytes comes through whole", async (bytes) => {
    const answer = await call("fetch", { bytes });
    expect(answer.status).toBe("succeeded");
    expect(answer.error).toBeNull();
    expect(String(answer.outputs.body).length).toBe(bytes);
  });

  it.each([70_000, 5_000_000])("a code result of %i characters comes through whole", async (size) => {
    const answer = await call("compute", { size });
    expect(answer.status).toBe("succeeded");
    expect(String(answer.outputs.result).length).toBe(size);
  });

  it("a 10 MB error message is capped in the answer and in the run record", async () => {
    const answer = await call("throw-big");
    expect(answer.status).toBe("failed");
    expect(answer.error?.code).toBeTruthy();
    const message = (answer.error as { message?: string }).message ?? "";
    expect(message.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 500);
    expect(message).toContain("message truncated");
    // The stored events (what SSE replays and the run page reads) stay far below 10 MB too.
    const events = await test.db.runEventRow.findMany({ where: { runId: answer.runId } });
    expect(JSON.stringify(events).length).toBeLessThan(200_000);
  });

  it("a broken tool source fails only the node that uses it; a tool-less workflow still runs", async () => {
    server.script(fakeScenarios.answer("Still here."));
    expect(await call("ask", { question: "Up?" })).toMatchObject({
      status: "succeeded",
      outputs: { answer: "Still here." },
    });
    const broken = await call("remote-echo");
    expect(broken.status).toBe("failed");
    expect(broken.error).toMatchObject({ code: "tool_source_unavailable", nodeId: "echo" });
  }, 30_000);

  it.each(["ask-bounded", "ask-node-bounded"])(
    "%s: a hung model ends with model_timeout at the provider's or the node's own bound",
    async (slug) => {
      server.script(fakeScenarios.hung());
      const startedAt = Date.now();
      const answer = await call(slug, { question: "Anyone there?" });
      expect(answer.status).toBe("failed");
      expect(answer.error).toMatchObject({ code: "model_timeout", nodeId: "ask" });
      expect(Date.now() - startedAt).toBeLessThan(30_000);
    },
    40_000,
  );

  it("a hung model with the default bounds ends with model_timeout within the documented 60 s to first byte", async () => {
    server.script(fakeScenarios.hung());
    const startedAt = Date.now();
    const answer = await call("ask", { question: "Anyone there?" });
    const elapsed = Date.now() - startedAt;
    expect(answer.status).toBe("failed");
    expect(answer.error).toMatchObject({ code: "model_timeout", nodeId: "ask" });
    // The bound is documented (README, "Model call time bounds"): 60 s to the first byte of a
    // streamed attempt, and a timeout is not retried, so one attempt, not three.
    expect(elapsed).toBeGreaterThanOrEqual(59_000);
    expect(elapsed).toBeLessThan(80_000);
    expect(server.requests).toHaveLength(1);
  }, 120_000);
});
