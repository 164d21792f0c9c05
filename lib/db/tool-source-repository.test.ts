import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSourceInputSchema, openApiSourceInputSchema } from "../contracts/tool-source-config";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import {
  createToolSource,
  deleteToolSource,
  getToolSource,
  listResolvedToolSources,
  listToolSources,
  loadResolvedToolSource,
  saveMcpToolsSnapshot,
  setReadOnlyTools,
  updateToolSource,
} from "./tool-source-repository";

const SPEC = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1" }, paths: {} });

describe.each(testProviders())("tool source repository on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ workspaceId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    }));
  });
  afterAll(async () => test?.dispose());

  it("stores an OpenAPI bearer token encrypted and only reports that it exists", async () => {
    const input = openApiSourceInputSchema.parse({
      kind: "openapi",
      name: "Pets",
      spec: SPEC,
      auth: { type: "bearer" },
      secret: "tok-very-secret",
    });
    const view = await createToolSource(workspaceId, input);
    expect(view).toMatchObject({
      kind: "openapi",
      name: "Pets",
      config: { hasSecret: true, auth: { type: "bearer" } },
    });
    expect(JSON.stringify(view)).not.toContain("tok-very-secret");
    expect(JSON.stringify(await listToolSources(workspaceId))).not.toContain("tok-very-secret");

    const rows = await test.db.credential.findMany({ where: { workspaceId, kind: "tool-auth" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.secret).not.toContain("tok-very-secret");
    expect(JSON.stringify(await test.db.toolSource.findMany())).not.toContain("tok-very-secret");
    expect((await loadResolvedToolSource(workspaceId, view.id)).secrets.token).toBe("tok-very-secret");

    // Editing without re-entering the token keeps it; switching auth off deletes it.
    const { secret: _omitted, ...withoutSecret } = input;
    await updateToolSource(workspaceId, view.id, { ...withoutSecret, serverUrl: "https://pets.example.com" });
    const kept = await loadResolvedToolSource(workspaceId, view.id);
    expect(kept.secrets.token).toBe("tok-very-secret");
    expect(kept.kind === "openapi" && kept.config.serverUrl).toBe("https://pets.example.com");
    await updateToolSource(workspaceId, view.id, { ...withoutSecret, auth: { type: "none" } });
    expect((await getToolSource(workspaceId, view.id)).config).toMatchObject({ hasSecret: false });
    expect(await test.db.credential.count({ where: { workspaceId, kind: "tool-auth" } })).toBe(0);
    await deleteToolSource(workspaceId, view.id);
  });

  it("refuses an API key source without a key, and a duplicate name", async () => {
    const input = openApiSourceInputSchema.parse({
      kind: "openapi",
      name: "Keyed",
      spec: SPEC,
      auth: { type: "apiKey", in: "header", name: "X-Api-Key" },
    });
    await expect(createToolSource(workspaceId, input)).rejects.toMatchObject({
      code: "tool_source_invalid",
      issues: [{ path: "secret" }],
    });
    expect(await test.db.toolSource.count({ where: { workspaceId, name: "Keyed" } })).toBe(0);
    await createToolSource(workspaceId, { ...input, secret: "k" });
    await expect(createToolSource(workspaceId, { ...input, secret: "k2" })).rejects.toMatchObject({
      code: "tool_source_name_taken",
    });
  });

  it("keeps MCP env and header values encrypted, write-only and merged on edit", async () => {
    const input = mcpSourceInputSchema.parse({
      kind: "mcp",
      name: "Everything",
      connection: {
        transport: "stdio",
        command: "mcp-server-everything",
        args: ["stdio"],
        env: [
          { name: "API_TOKEN", value: "env-secret-1" },
          { name: "REGION", value: "eu" },
        ],
      },
      readOnlyTools: ["echo"],
    });
    const view = await createToolSource(workspaceId, input);
    expect(view.kind === "mcp" && view.config.connection).toEqual({
      transport: "stdio",
      command: "mcp-server-everything",
      args: ["stdio"],
      env: [
        { name: "API_TOKEN", hasValue: true },
        { name: "REGION", hasValue: true },
      ],
    });
    expect(JSON.stringify(await test.db.toolSource.findMany())).not.toContain("env-secret-1");
    expect(JSON.stringify(await test.db.credential.findMany())).not.toContain("env-secret-1");

    // API_TOKEN keeps its value (none submitted), REGION changes, a new entry without a value is refused.
    await updateToolSource(workspaceId, view.id, {
      ...input,
      connection: {
        transport: "stdio",
        command: "mcp-server-everything",
        args: ["stdio"],
        env: [{ name: "API_TOKEN" }, { name: "REGION", value: "us" }],
      },
    });
    expect((await loadResolvedToolSource(workspaceId, view.id)).secrets.env).toEqual({
      API_TOKEN: "env-secret-1",
      REGION: "us",
    });
    await expect(
      updateToolSource(workspaceId, view.id, {
        ...input,
        connection: { transport: "stdio", command: "x", args: [], env: [{ name: "NEW_ONE" }] },
      }),
    ).rejects.toMatchObject({ code: "tool_source_invalid", issues: [{ path: "connection.env[0].value" }] });

    await expect(
      updateToolSource(workspaceId, view.id, {
        ...input,
        kind: "openapi",
        spec: SPEC,
        auth: { type: "none" },
      } as never),
    ).rejects.toMatchObject({ code: "tool_source_invalid", issues: [{ path: "kind" }] });
  });

  it("switches an MCP source to HTTP with encrypted headers, keeps the tool snapshot, sets read-only tools", async () => {
    const created = await createToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Remote",
        connection: {
          transport: "http",
          url: "https://mcp.example.com/mcp",
          headers: [{ name: "Authorization", value: "Bearer h-secret" }],
        },
      }),
    );
    await saveMcpToolsSnapshot(workspaceId, created.id, [
      { name: "echo", description: "Echo", inputSchema: { type: "object" } },
    ]);
    const updated = await setReadOnlyTools(workspaceId, created.id, ["echo", "echo"]);
    expect(updated.kind === "mcp" && updated.config).toMatchObject({
      readOnlyTools: ["echo"],
      toolsSnapshot: [{ name: "echo" }],
      connection: { transport: "http", headers: [{ name: "Authorization", hasValue: true }] },
    });
    const resolved = (await listResolvedToolSources(workspaceId)).find((source) => source.id === created.id);
    expect(resolved?.secrets.headers).toEqual({ Authorization: "Bearer h-secret" });
    expect(JSON.stringify(updated)).not.toContain("h-secret");
  });

  it("deletes a source with its credential and answers not found afterwards", async () => {
    const created = await createToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "Doomed",
        connection: { transport: "http", url: "https://mcp.example.com/mcp", headers: [{ name: "X", value: "y" }] },
      }),
    );
    expect(await test.db.credential.count({ where: { name: `tool-source:${created.id}` } })).toBe(1);
    await deleteToolSource(workspaceId, created.id);
    expect(await test.db.credential.count({ where: { name: `tool-source:${created.id}` } })).toBe(0);
    await expect(getToolSource(workspaceId, created.id)).rejects.toMatchObject({ code: "tool_source_not_found" });
    await expect(deleteToolSource(workspaceId, created.id)).rejects.toMatchObject({ code: "tool_source_not_found" });
    await expect(
      getToolSource("another-workspace", (await listToolSources(workspaceId))[0]?.id ?? "x"),
    ).rejects.toMatchObject({
      code: "tool_source_not_found",
    });
  });
});
