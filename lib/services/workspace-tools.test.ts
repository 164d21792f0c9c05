import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mcpSourceInputSchema, openApiSourceInputSchema } from "../contracts/tool-source-config";
import {
  createToolSource,
  deleteToolSource,
  listToolSources,
  loadResolvedToolSource,
  saveMcpToolsSnapshot,
} from "../db/tool-source-repository";
import { type LocalServer, startLocalServer, testContext } from "../tools/test-support/local-server";
import { createEngineServices } from "./engine-services";
import { closeAllMcpConnections, getMcpConnection, type McpSource } from "./mcp-connections";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";
import {
  listToolSourceReports,
  refreshToolSource,
  removeToolSource,
  saveReadOnlyTools,
  saveToolSource,
  testToolSourceConnection,
} from "./tool-source-service";
import { buildWorkspaceToolRegistry, listWorkspaceTools, WorkspaceToolCollisionError } from "./workspace-tools";

const everythingBin = path.resolve(__dirname, "../../node_modules/.bin/mcp-server-everything");

function petsSpec(serverUrl: string): string {
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    servers: [{ url: serverUrl }],
    paths: {
      "/pets": {
        get: {
          operationId: "listPets",
          summary: "List pets",
          parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
          responses: { "200": { description: "ok" } },
        },
        post: { operationId: "createPet", summary: "Create a pet", responses: { "201": { description: "ok" } } },
      },
    },
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !predicate()) await new Promise((resolve) => setTimeout(resolve, 50));
  return predicate();
}

describe("workspace tools", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let stub: LocalServer;
  const received: { url: string; authorization?: string }[] = [];

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId } = test);
    stub = await startLocalServer((request, response) => {
      received.push({ url: request.url ?? "", authorization: request.headers.authorization });
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify([{ id: 1, name: "Rex" }]));
    });
  });
  async function loadMcp(id: string): Promise<McpSource> {
    const source = await loadResolvedToolSource(workspaceId, id);
    if (source.kind !== "mcp") throw new Error("expected an MCP source");
    return source;
  }

  afterEach(async () => {
    await closeAllMcpConnections();
    for (const source of await listToolSources(workspaceId)) await deleteToolSource(workspaceId, source.id);
  });
  afterAll(async () => {
    await closeAllMcpConnections();
    await stub?.close();
    await test?.dispose();
  });

  it("turns a stored OpenAPI source into tools that call the API with the stored secret", async () => {
    await saveToolSource(
      workspaceId,
      openApiSourceInputSchema.parse({
        kind: "openapi",
        name: "Pets",
        spec: petsSpec(stub.origin),
        auth: { type: "bearer" },
        secret: "pets-token",
        readOnlyTools: ["listPets"],
      }),
    );
    const registry = await buildWorkspaceToolRegistry(workspaceId, { allowlist: [stub.hostPort] });
    expect(registry.get("calculator")?.source.kind).toBe("built-in");
    const listPets = registry.get("listPets");
    expect(listPets).toMatchObject({ readOnly: true, source: { kind: "openapi", label: "Pets" } });
    expect(registry.get("createPet")?.readOnly).toBe(false);
    const result = await listPets?.execute({ limit: 2 }, testContext());
    expect(result).toMatchObject({ ok: true, content: { status: 200, body: [{ name: "Rex" }] } });
    expect(received.at(-1)).toEqual({ url: "/pets?limit=2", authorization: "Bearer pets-token" });

    // Editing without the token keeps it for the same server, but not for another one.
    const [stored] = await listToolSources(workspaceId);
    const edit = openApiSourceInputSchema.parse({
      kind: "openapi",
      name: "Pets",
      spec: petsSpec(stub.origin),
      auth: { type: "bearer" },
      readOnlyTools: ["listPets"],
    });
    await expect(saveToolSource(workspaceId, edit, stored?.id)).resolves.toMatchObject({ config: { hasSecret: true } });
    await expect(
      saveToolSource(workspaceId, { ...edit, serverUrl: "https://attacker.example.com" }, stored?.id),
    ).rejects.toMatchObject({ code: "tool_source_invalid", issues: [{ path: "secret" }] });
    await expect(
      saveToolSource(workspaceId, { ...edit, spec: petsSpec("https://attacker.example.com") }, stored?.id),
    ).rejects.toMatchObject({ issues: [{ path: "secret" }] });

    // Runs get the same tools through their per-run services: built-ins at once, sources per node.
    const services = await createEngineServices({ workspaceId, tools: { allowlist: [stub.hostPort] } });
    expect(services.tools.get("listPets")).toBeUndefined();
    expect((await services.resolveTools?.(["listPets"]))?.get("listPets")?.source.label).toBe("Pets");
    expect(services.tools.get("get_current_weather")).toBeDefined();

    // Without the allowlist the SSRF guard refuses the loopback stub: a tool result, not a crash.
    const guarded = await (await buildWorkspaceToolRegistry(workspaceId)).get("listPets")?.execute({}, testContext());
    expect(guarded).toMatchObject({ ok: false, error: { code: "ssrf_blocked" } });
  });

  it("refuses an invalid spec with the location of the problem and saves nothing", async () => {
    const spec = JSON.parse(petsSpec(stub.origin));
    spec.paths["/pets"].get.parameters = [{ in: "query" }];
    const save = saveToolSource(
      workspaceId,
      openApiSourceInputSchema.parse({ kind: "openapi", name: "Broken", spec: JSON.stringify(spec) }),
    );
    await expect(save).rejects.toMatchObject({
      code: "openapi_invalid",
      message: "paths./pets.get.parameters[0]: missing name",
      issues: [{ path: "paths./pets.get.parameters[0]", message: "missing name" }],
    });
    await expect(
      saveToolSource(
        workspaceId,
        openApiSourceInputSchema.parse({ kind: "openapi", name: "Yaml", spec: "openapi: [" }),
      ),
    ).rejects.toMatchObject({ code: "openapi_invalid", issues: [{ path: "(document)" }] });
    expect(await listToolSources(workspaceId)).toEqual([]);
  });

  it("reports a tool name collision naming both sources, at save time and when building", async () => {
    const colliding = JSON.parse(petsSpec(stub.origin));
    colliding.paths["/pets"].get.operationId = "calculator";
    const input = openApiSourceInputSchema.parse({
      kind: "openapi",
      name: "Calc API",
      spec: JSON.stringify(colliding),
    });
    await expect(saveToolSource(workspaceId, input)).rejects.toMatchObject({
      code: "tool_name_collision",
      message: expect.stringContaining('built-in "Built-in"'),
    });
    await expect(saveToolSource(workspaceId, { ...input, toolNamePrefix: "calc_" })).resolves.toMatchObject({
      name: "Calc API",
    });

    // Two sources stored behind the service's back (e.g. by an older version) still fail clearly.
    const spec = petsSpec(stub.origin);
    await createToolSource(workspaceId, openApiSourceInputSchema.parse({ kind: "openapi", name: "Pets A", spec }));
    await createToolSource(workspaceId, openApiSourceInputSchema.parse({ kind: "openapi", name: "Pets B", spec }));
    const building = buildWorkspaceToolRegistry(workspaceId);
    await expect(building).rejects.toBeInstanceOf(WorkspaceToolCollisionError);
    await expect(building).rejects.toMatchObject({
      code: "tool_name_collision",
      message: expect.stringMatching(/openapi "Pets A".*openapi "Pets B"/),
    });
    // The picker keeps working and says what lost.
    const listed = await listWorkspaceTools(workspaceId);
    expect(listed.tools.filter((tool) => tool.name === "listPets")).toHaveLength(1);
    expect(listed.tools.find((tool) => tool.name === "calc_calculator")?.baseName).toBe("calculator");
    expect(listed.problems.join("\n")).toMatch(
      /"listPets" is defined twice: by openapi "Pets A" and by openapi "Pets B"/,
    );
  });

  it("exposes a stdio MCP server's tools, trusting only our read-only list, and restarts it on update and delete", async () => {
    const saved = await saveToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Everything",
        connection: { transport: "stdio", command: everythingBin, args: ["stdio"] },
        readOnlyTools: ["get-sum"],
      }),
    );
    const registry = await buildWorkspaceToolRegistry(workspaceId);
    const echo = registry.get("echo");
    expect(echo?.source).toMatchObject({ kind: "mcp", label: "Everything", annotations: { readOnlyHint: true } });
    expect(echo?.readOnly).toBe(false);
    expect(registry.get("get-sum")?.readOnly).toBe(true);
    expect(await echo?.execute({ message: "hi" }, testContext())).toMatchObject({ ok: true });
    expect(registry.get("calculator")).toBeDefined();

    const [report] = await listToolSourceReports(workspaceId, await listToolSources(workspaceId));
    expect(report?.status).toBe("ready");
    expect(report?.source.kind === "mcp" && report.source.config.toolsSnapshot.map((tool) => tool.name)).toContain(
      "echo",
    );

    const first = await getMcpConnection(await loadMcp(saved.id));
    const pid = first.ok ? first.server.pid() : null;
    expect(pid).toBeGreaterThan(0);

    // Changing the read-only list closes the old connection (its child exits) and the new one applies it.
    await saveReadOnlyTools(workspaceId, saved.id, ["get-sum", "echo"]);
    expect(await waitFor(() => !isAlive(pid as number))).toBe(true);
    expect((await buildWorkspaceToolRegistry(workspaceId)).get("echo")?.readOnly).toBe(true);

    const refreshed = await refreshToolSource(workspaceId, saved.id);
    expect(refreshed.status).toBe("ready");
    expect(refreshed.tools.find((tool) => tool.name === "echo")).toMatchObject({ readOnly: true, baseName: "echo" });

    const again = await getMcpConnection(await loadMcp(saved.id));
    const secondPid = again.ok ? again.server.pid() : null;
    await removeToolSource(workspaceId, saved.id);
    expect(await waitFor(() => !isAlive(secondPid as number))).toBe(true);
    expect((await buildWorkspaceToolRegistry(workspaceId)).get("echo")).toBeUndefined();
  });

  it("keeps the registry working when an MCP server is unreachable: its known tools answer mcp_unavailable", async () => {
    const closed = await startLocalServer(() => undefined);
    await closed.close();
    const saved = await saveToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Gone",
        connection: {
          transport: "http",
          url: `${closed.origin}/mcp`,
          headers: [{ name: "Authorization", value: "Bearer x" }],
        },
      }),
    );
    await saveMcpToolsSnapshot(workspaceId, saved.id, [
      { name: "lookup", description: "Look something up", inputSchema: { type: "object" } },
    ]);
    const started = Date.now();
    const registry = await buildWorkspaceToolRegistry(workspaceId, {
      allowlist: [closed.hostPort],
      connectTimeoutMs: 2000,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(registry.get("calculator")).toBeDefined();
    const result = await registry.get("lookup")?.execute({}, testContext());
    expect(result).toMatchObject({ ok: false, retryable: true, error: { code: "mcp_unavailable" } });
    expect(result?.ok === false && result.error.message).toContain('MCP server "Gone" is unavailable');

    const [report] = await listToolSourceReports(workspaceId, await listToolSources(workspaceId), {
      allowlist: [closed.hostPort],
    });
    expect(report).toMatchObject({
      status: "unavailable",
      error: { code: "mcp_unavailable" },
      tools: [{ name: "lookup" }],
    });
  });

  it("tests MCP connections: lists tools, reports failures, never hangs", async () => {
    const ok = await testToolSourceConnection(workspaceId, {
      name: "probe",
      connection: { transport: "stdio", command: everythingBin, args: ["stdio"], env: [] },
    });
    expect(ok.ok && ok.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));

    const missing = await testToolSourceConnection(workspaceId, {
      name: "missing",
      connection: { transport: "stdio", command: "/nonexistent/trellis-mcp", args: [], env: [] },
    });
    expect(missing).toMatchObject({ ok: false, error: { code: "mcp_unavailable" } });

    // A process that never speaks MCP: the deadline answers.
    const started = Date.now();
    const silent = await testToolSourceConnection(
      workspaceId,
      {
        name: "silent",
        connection: {
          transport: "stdio",
          command: process.execPath,
          args: ["-e", "setInterval(() => {}, 1000)"],
          env: [],
        },
      },
      { deadlineMs: 1500 },
    );
    expect(silent.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
