import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSourceInputSchema, openApiSourceInputSchema } from "../contracts/tool-source-config";
import { createToolSource, saveMcpToolsSnapshot } from "../db/tool-source-repository";
import type { EngineServices } from "../engine/executor";
import { MemoryRunRecorder } from "../engine/memory-recorder";
import { runWorkflow } from "../engine/run-workflow";
import { WorkflowBuilder } from "../engine/testing";
import { createEngineServices } from "./engine-services";
import { closeAllMcpConnections } from "./mcp-connections";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// One broken tool source no longer fails every run (issue 11): tools are resolved per node,
// lazily. A colliding or unreachable source fails only the node that names its tool, with a
// tool-source code; tool-less runs and built-in tools are untouched.

function petsSpec(): string {
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    servers: [{ url: "http://127.0.0.1:9/" }],
    paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } },
  });
}

function toolWorkflow(tool: string, args: Record<string, unknown> = {}) {
  return new WorkflowBuilder()
    .add("start", "start", {})
    .add("call", "tool", { tool, arguments: args })
    .chain("start", "call")
    .build();
}

async function run(workflow: ReturnType<typeof toolWorkflow>, services: EngineServices) {
  const recorder = new MemoryRunRecorder();
  const result = await runWorkflow(workflow, {}, { runId: `r-${Math.random()}`, recorder, services });
  const nodeError = recorder.events.find((event) => event.type === "node-error");
  return { result, nodeError: nodeError?.type === "node-error" ? nodeError : undefined };
}

describe("tool sources resolved per node", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let services: EngineServices;
  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId } = test);
    // Two sources defining the same tool, stored behind the settings service's back.
    const spec = petsSpec();
    await createToolSource(workspaceId, openApiSourceInputSchema.parse({ kind: "openapi", name: "Pets A", spec }));
    await createToolSource(workspaceId, openApiSourceInputSchema.parse({ kind: "openapi", name: "Pets B", spec }));
    // An MCP server that cannot start, known from an earlier listing.
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
    services = await createEngineServices({ workspaceId, tools: { connectTimeoutMs: 3000, retryAfterMs: 0 } });
  });
  afterAll(async () => {
    await closeAllMcpConnections();
    await test?.dispose();
  });

  it("creating the run's services never fails on a broken or colliding source", () => {
    expect(services.tools.get("current_time")).toBeDefined();
    expect(services.resolveTools).toBeTypeOf("function");
  });

  it("a run with no tools succeeds", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("say", "template", { template: "hello" })
      .chain("start", "say")
      .build();
    const { result } = await run(workflow, services);
    expect(result.status).toBe("succeeded");
  });

  it("a built-in tool still runs", async () => {
    const { result } = await run(toolWorkflow("current_time", { timezone: "UTC" }), services);
    expect(result.status).toBe("succeeded");
  });

  it("the node naming a colliding tool fails with tool_name_collision naming both sources", async () => {
    const { result, nodeError } = await run(toolWorkflow("listPets"), services);
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("tool_name_collision");
    expect(nodeError?.error.code).toBe("tool_name_collision");
    expect(nodeError?.error.message).toMatch(/openapi "Pets A".*openapi "Pets B"/);
  });

  it("the node naming a tool of an unreachable source fails with tool_source_unavailable", async () => {
    const { result, nodeError } = await run(toolWorkflow("remote_echo"), services);
    expect(result.status).toBe("failed");
    expect(nodeError?.error.code).toBe("tool_source_unavailable");
    expect(nodeError?.error.message).toContain('mcp "Gone"');
  });
});
