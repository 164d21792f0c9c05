import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllMcpConnections } from "@/lib/services/mcp-connections";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { GET as getTools } from "../tools/route";
import { POST as refresh } from "./[id]/refresh/route";
import { DELETE, GET as getOne, PATCH, PUT } from "./[id]/route";
import { GET, POST } from "./route";
import { POST as testConnection } from "./test/route";

const everythingBin = path.resolve(__dirname, "../../../node_modules/.bin/mcp-server-everything");

const SPEC_YAML = `openapi: 3.0.3
info: { title: Weather, version: "1" }
servers: [{ url: "https://weather.example.com/v1" }]
paths:
  /forecast:
    get:
      operationId: getForecast
      summary: Forecast for a city
      parameters:
        - { name: city, in: query, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }
`;

const json = (method: string, body: unknown) => apiRequest(method, body, "http://localhost/api/tool-sources");

const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe("tool source routes", () => {
  let test: OwnerWorkspace;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
  });
  afterAll(async () => {
    await closeAllMcpConnections();
    await test?.dispose();
  });

  it("imports a YAML spec with an API key, lists its operations as tools, never returns the key", async () => {
    const created = await POST(
      json("POST", {
        kind: "openapi",
        name: "Weather",
        spec: SPEC_YAML,
        auth: { type: "apiKey", in: "query", name: "key" },
        secret: "weather-key-123",
      }),
    );
    expect(created.status).toBe(201);
    const { source } = await created.json();
    const listed = await (await GET(apiRequest())).json();
    expect(listed.sources).toEqual([
      expect.objectContaining({
        status: "ready",
        source: expect.objectContaining({ id: source.id, config: expect.objectContaining({ hasSecret: true }) }),
        tools: [
          expect.objectContaining({
            name: "getForecast",
            readOnly: false,
            source: expect.objectContaining({ kind: "openapi", annotations: { method: "GET", path: "/forecast" } }),
          }),
        ],
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain("weather-key-123");

    // The tool picker lists it next to the built-ins, with its source and annotations.
    const picker = await (await getTools(apiRequest())).json();
    expect(picker.tools).toContainEqual(
      expect.objectContaining({
        name: "getForecast",
        source: expect.objectContaining({ kind: "openapi", label: "Weather" }),
      }),
    );
    expect(picker.tools).toContainEqual(
      expect.objectContaining({ name: "calculator", source: expect.objectContaining({ kind: "built-in" }) }),
    );
    expect(picker.problems).toEqual([]);

    const patched = await PATCH(json("PATCH", { readOnlyTools: ["getForecast"] }), params(source.id));
    expect(patched.status).toBe(200);
    const one = await (await getOne(apiRequest(), params(source.id))).json();
    expect(one.source.tools[0]).toMatchObject({ name: "getForecast", readOnly: true });
  });

  it("answers 400 naming the location of an invalid spec and saves nothing", async () => {
    const broken = SPEC_YAML.replace("- { name: city, in: query", "- { in: query");
    const response = await POST(json("POST", { kind: "openapi", name: "Broken", spec: broken }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "openapi_invalid",
        message: "paths./forecast.get.parameters[0]: missing name",
        issues: [{ path: "paths./forecast.get.parameters[0]", message: "missing name" }],
      },
    });
    const names = (await (await GET(apiRequest())).json()).sources.map(
      (entry: { source: { name: string } }) => entry.source.name,
    );
    expect(names).not.toContain("Broken");
    const badBody = await POST(json("POST", { kind: "openapi", name: "", spec: "x" }));
    expect(await badBody.json()).toMatchObject({ error: { code: "invalid_request", field: "name" } });
  });

  it("tests, adds, refreshes and deletes an MCP server", async () => {
    const connection = {
      transport: "stdio",
      command: everythingBin,
      args: ["stdio"],
      env: [{ name: "TOKEN", value: "mcp-secret" }],
    };
    const tested = await (await testConnection(json("POST", { name: "Everything", connection }))).json();
    expect(tested.ok).toBe(true);
    expect(tested.tools.map((tool: { name: string }) => tool.name)).toContain("echo");

    const created = await (
      await POST(json("POST", { kind: "mcp", name: "Everything", connection, toolNamePrefix: "ev_" }))
    ).json();
    const refreshed = await (await refresh(apiRequest("POST"), params(created.source.id))).json();
    expect(refreshed.status).toBe("ready");
    expect(refreshed.tools).toContainEqual(
      expect.objectContaining({ name: "ev_echo", baseName: "echo", readOnly: false }),
    );

    // Editing without the env value keeps it; the listing hides it.
    const { env: _env, ...withoutEnv } = connection;
    const edited = await PUT(
      json("PUT", {
        kind: "mcp",
        name: "Everything",
        connection: { ...withoutEnv, env: [{ name: "TOKEN" }] },
        toolNamePrefix: "ev_",
      }),
      params(created.source.id),
    );
    const editedBody = await edited.json();
    expect(editedBody.source.config.connection.env).toEqual([{ name: "TOKEN", hasValue: true }]);
    expect(JSON.stringify(editedBody)).not.toContain("mcp-secret");

    // Pointing the source at another command does not hand it the stored value.
    const redirected = await PUT(
      json("PUT", {
        kind: "mcp",
        name: "Everything",
        connection: { transport: "stdio", command: "/usr/bin/env", args: [], env: [{ name: "TOKEN" }] },
      }),
      params(created.source.id),
    );
    expect(redirected.status).toBe(400);
    expect(await redirected.json()).toMatchObject({ error: { issues: [{ path: "connection.env[0].value" }] } });
    const probe = await (
      await testConnection(
        json("POST", {
          id: created.source.id,
          connection: { transport: "stdio", command: "/usr/bin/env", args: [], env: [{ name: "TOKEN" }] },
        }),
      )
    ).json();
    expect(probe).toMatchObject({ ok: false, error: { code: "tool_source_invalid" } });

    expect((await DELETE(apiRequest(), params(created.source.id))).status).toBe(204);
    expect((await getOne(apiRequest(), params(created.source.id))).status).toBe(404);

    const failing = await (
      await testConnection(
        json("POST", { connection: { transport: "stdio", command: "/nonexistent/server", args: [] } }),
      )
    ).json();
    expect(failing).toMatchObject({ ok: false, error: { code: "mcp_unavailable" } });
  });
});
