import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mcpSourceInputSchema } from "@/lib/contracts/tool-source-config";
import { createApiKey } from "@/lib/db/api-key-repository";
import { saveProvider } from "@/lib/db/provider-repository";
import { getRun, listRunEvents } from "@/lib/db/run-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createToolSource } from "@/lib/db/tool-source-repository";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { type RouteServer, startRouteServer } from "@/lib/http/testing/route-server";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { fakeScenarios } from "@/lib/llm/fake-server/scenarios";
import { closeAllMcpConnections } from "@/lib/services/mcp-connections";
import { serviceRoot } from "@/lib/services/root";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "@/lib/workflow/document";
import { python, runPythonClient } from "../testing/python-client";
import { GET as mcpGet, POST as mcpPost } from "./route";

/**
 * Published workflows as MCP tools, exercised by the official MCP SDK client over real HTTP, and
 * by a second Trellis workspace that adds the endpoint as an MCP tool source (a flow calling a
 * flow over MCP).
 */

const model = { provider: "fake", model: "gpt-4o-mini" };

function flow(
  inputs: Record<string, unknown>[],
  middle: { type: string; data: Record<string, unknown> },
  outputs: { name: string; value: string }[],
): WorkflowDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs } },
      { id: "work", type: middle.type, position: { x: 200, y: 0 }, data: { title: "Work", ...middle.data } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, data: { title: "End", outputs } },
    ],
    edges: [
      { id: "e1", source: "start", target: "work" },
      { id: "e2", source: "work", target: "end" },
    ],
  } as WorkflowDocument;
}

const greeter = flow(
  [
    { name: "name", type: "string", required: true, description: "Who to greet" },
    { name: "excited", type: "boolean", default: false },
  ],
  { type: "template", data: { template: "Hello, {{start.name}}!" } },
  [
    { name: "greeting", value: "{{work.text}}" },
    { name: "excited", value: "{{start.excited}}" },
  ],
);
const ask = flow(
  [{ name: "question", type: "string", required: true }],
  { type: "llm", data: { model, userPrompt: "{{start.question}}" } },
  [{ name: "answer", value: "{{work.text}}" }],
);

describe("MCP server of published workflows", () => {
  let test: TestDatabase;
  let fake: FakeOpenAIServer;
  let api: RouteServer;
  let workspaceId: string;
  let ownerId: string;
  let secret: string;
  let url: URL;
  const clients: Client[] = [];

  async function publish(name: string, document: WorkflowDocument, description = "", inWorkspace = workspaceId) {
    const { id } = await createWorkflow(inWorkspace, { name, userId: ownerId, draft: document });
    if (description) await test.db.workflow.update({ where: { id }, data: { description } });
    await publishWorkflow(id, { note: "", userId: ownerId });
    return id;
  }

  async function connect(key: string | null = secret): Promise<Client> {
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    fake = await startFakeOpenAIServer();
    ({ workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    }));
    await saveProvider(workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-fake-provider-key" });
    await publish("Greeter", greeter, "Greets someone by name.");
    await publish("Ask", ask);
    await createWorkflow(workspaceId, { name: "Draft only", userId: ownerId, draft: greeter });
    secret = (await createApiKey(workspaceId, { name: "mcp", scopes: ["run"] })).secret;
    api = await startRouteServer({ "POST /api/v1/mcp": mcpPost, "GET /api/v1/mcp": mcpGet });
    url = new URL(`${api.origin}/api/v1/mcp`);
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await closeAllMcpConnections();
    await api?.close();
    await fake?.close();
    await test?.dispose();
  });

  it("lists each published workflow as a tool: name from the slug, description, inputSchema from the start inputs", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe("trellis");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["ask", "greeter"]);
    const tool = tools.find((candidate) => candidate.name === "greeter");
    expect(tool?.description).toContain("Greets someone by name.");
    expect(tool?.title).toBe("Greeter");
    expect(tool?.inputSchema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "Who to greet" },
        excited: { type: "boolean", default: false },
      },
      required: ["name"],
      additionalProperties: false,
    });
  });

  it("calls a tool: the run's outputs as structured content and text, with the run id", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "greeter", arguments: { name: "Ada" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ greeting: "Hello, Ada!", excited: false });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    const runId = (result._meta as Record<string, string>)["trellis/runId"];
    const run = await getRun(runId!);
    expect(run).toMatchObject({ status: "succeeded", trigger: "api" });
  });

  it("sends progress notifications while the run goes when the client asks for them", async () => {
    fake.script(fakeScenarios.answer("Forty-two."));
    const client = await connect();
    const progress: Progress[] = [];
    const result = await client.callTool({ name: "ask", arguments: { question: "Meaning?" } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.content).toEqual([{ type: "text", text: "Forty-two." }]);
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
    expect(progress.map((update) => update.message)).toEqual(["Start: succeeded", "Work: succeeded", "End: succeeded"]);
    // A tool call's caller reads the result, never the text as it is written: the run records no
    // text deltas, while its model call still streamed (its first-byte bound applies).
    const runId = (result._meta as Record<string, string>)["trellis/runId"];
    const events = await listRunEvents(runId ?? "", 0);
    expect(events.filter((event) => event.type === "node-delta")).toEqual([]);
    expect(events.some((event) => event.type === "node-end" && event.nodeId === "work")).toBe(true);
    expect(fake.requests.map((request) => request.body.stream)).toEqual([true]);
  });

  it("a failed run is an error result with the run's real code", async () => {
    fake.script(fakeScenarios.echoKey401());
    const client = await connect();
    const result = await client.callTool({ name: "ask", arguments: { question: "Hi" } });
    expect(result.isError).toBe(true);
    const structured = result.structuredContent as { runId: string; status: string; error: { code: string } };
    const run = await getRun(structured.runId);
    expect(run?.status).toBe("failed");
    expect(run?.errorCode).toBeTruthy();
    expect(structured).toMatchObject({ status: "failed", error: { code: run?.errorCode } });
    expect((result.content as { text: string }[])[0]?.text.startsWith(`${run?.errorCode}: `)).toBe(true);
    // The provider key the model server echoed is redacted from what the caller sees.
    expect(JSON.stringify(result)).not.toContain("sk-fake-provider-key");
  });

  it("refuses bad arguments with invalid_input naming the field, before any run", async () => {
    const client = await connect();
    const before = await test.db.run.count();
    const result = await client.callTool({ name: "greeter", arguments: { name: 42 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^invalid_input: .*name/);
    expect(await test.db.run.count()).toBe(before);
  });

  it("an unknown tool is a JSON-RPC error", async () => {
    const client = await connect();
    await expect(client.callTool({ name: "draft-only", arguments: {} })).rejects.toThrow(/Unknown tool: draft-only/);
  });

  it("a key limited to one workflow sees and calls only that tool", async () => {
    const greeterId = (await test.db.workflow.findFirstOrThrow({ where: { slug: "greeter" } })).id;
    const limited = (await createApiKey(workspaceId, { name: "one", scopes: ["run"], workflowId: greeterId })).secret;
    const client = await connect(limited);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greeter"]);
    await expect(client.callTool({ name: "ask", arguments: { question: "x" } })).rejects.toThrow(/Unknown tool/);
  });

  // The official Python SDK's client too (`npm test` installs it, scripts/python-sdks.sh; skipped where it cannot).
  it.skipIf(!python)(
    "the official Python SDK's client connects, lists the tools, calls them with progress, gets invalid_input, pings, and is refused an unknown tool",
    async () => {
      fake.script(fakeScenarios.answer("Forty-two."));
      const answers = await runPythonClient<
        Record<string, unknown> & {
          tools: { name: string; inputSchema: unknown }[];
          progress: { progress: number; message: string }[];
        }
      >("mcp-python-client.py", {
        MCP_URL: url.href,
        MCP_API_KEY: secret,
      });
      expect(answers.sdk).toMatch(/^\d+\./);
      expect(answers.server).toMatchObject({ name: "trellis" });
      // Its newest-era probe falls back to the initialize handshake, at a version both sides speak.
      expect(answers.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(answers.tools.map((tool) => tool.name)).toEqual(["ask", "greeter"]);
      expect(answers.tools[1]?.inputSchema).toMatchObject({ required: ["name"], additionalProperties: false });
      expect(answers.ask).toMatchObject({ content: [{ type: "text", text: "Forty-two." }] });
      expect(answers.progress.map((update) => [update.progress, update.message])).toEqual([
        [1, "Start: succeeded"],
        [2, "Work: succeeded"],
        [3, "End: succeeded"],
      ]);
      expect(answers.greeter).toMatchObject({ structuredContent: { greeting: "Hello, Ada!", excited: false } });
      expect(answers.bad_arguments).toMatchObject({ isError: true, content: [{ type: "text" }] });
      expect((answers.bad_arguments as { content: { text: string }[] }).content[0]?.text).toMatch(/^invalid_input: /);
      // What a client checks besides: ping answers, tools is the capability served, an unknown tool is an error.
      expect(answers.ping).toEqual({});
      expect(answers.capabilities).toMatchObject({ tools: {} });
      expect(JSON.stringify(answers.unknown_tool)).toMatch(/Unknown tool: nowhere/);
    },
  );

  it("answers 401 JSON without a valid key", async () => {
    await expect(connect(null)).rejects.toThrow(/401|unauthorized/i);
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: "Bearer trl_nope",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("invalid_api_key");
  });

  it("a second workspace adds the endpoint as an MCP tool source: a flow calls a flow over MCP", async () => {
    const other = await test.db.workspace.create({ data: { name: "Caller", slug: "caller" } });
    await test.db.membership.create({ data: { workspaceId: other.id, userId: ownerId, role: "owner" } });
    await createToolSource(
      other.id,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Trellis W",
        connection: {
          transport: "http",
          url: url.href,
          headers: [{ name: "Authorization", value: `Bearer ${secret}` }],
        },
        toolNamePrefix: "w_",
      }),
    );
    const caller = flow(
      [{ name: "who", type: "string", required: true }],
      { type: "tool", data: { tool: "w_greeter", arguments: { name: "{{start.who}}" } } },
      [{ name: "reply", value: "{{work.result.greeting}}" }],
    );
    const callerId = (await createWorkflow(other.id, { name: "Caller", userId: ownerId, draft: caller })).id;
    const previous = process.env.TRELLIS_HTTP_ALLOWLIST;
    process.env.TRELLIS_HTTP_ALLOWLIST = api.hostPort;
    try {
      const started = await serviceRoot().runs.start({
        workspaceId: other.id,
        workflowId: callerId,
        document: caller,
        inputs: { who: "Grace" },
        trigger: "editor",
      });
      await started.done;
      const run = await getRun(started.runId);
      expect(run?.errorMessage ?? null).toBeNull();
      expect(run).toMatchObject({ status: "succeeded", outputs: { reply: "Hello, Grace!" } });
      // The callee ran in its own workspace, as an API run.
      const callee = await test.db.run.findFirst({ where: { workspaceId }, orderBy: { startedAt: "desc" } });
      expect(callee).toMatchObject({ trigger: "api", status: "succeeded" });
      expect(callee?.inputs).toMatchObject({ name: "Grace" });
    } finally {
      if (previous === undefined) delete process.env.TRELLIS_HTTP_ALLOWLIST;
      else process.env.TRELLIS_HTTP_ALLOWLIST = previous;
    }
  });
});
