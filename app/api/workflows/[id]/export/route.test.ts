import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolSource } from "@/lib/db/tool-source-repository";
import { createWorkflow } from "@/lib/db/workflow-repository";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { POST as importWorkflow } from "../../import/route";
import { GET } from "./route";

const SPEC_YAML = `openapi: 3.0.3
info: { title: Weather, version: "1" }
servers: [{ url: "https://weather.example.com/v1" }]
paths:
  /forecast:
    get:
      operationId: getForecast
      parameters:
        - { name: city, in: query, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }
`;

describe("GET /api/workflows/:id/export", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let userId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite");
    ({ workspaceId, ownerId: userId } = test);
    await createToolSource(workspaceId, {
      kind: "openapi",
      name: "Weather",
      spec: SPEC_YAML,
      auth: { type: "apiKey", in: "query", name: "key" },
      secret: "weather-key-export-test",
      readOnlyTools: [],
    });
  });
  afterAll(async () => test?.dispose());

  it("exports tool-source, credential and provider references (never secrets), which an import checks", async () => {
    const { id } = await createWorkflow(workspaceId, {
      name: "Forecast",
      userId,
      draft: {
        schemaVersion: 2,
        nodes: [
          { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
          {
            id: "forecast",
            type: "tool",
            position: { x: 200, y: 0 },
            data: { title: "Forecast", tool: "getForecast", arguments: { city: "Oslo" } },
          },
          {
            id: "post",
            type: "http",
            position: { x: 400, y: 0 },
            data: { title: "Post", method: "POST", url: "https://x.test", credential: "hooks" },
          },
          { id: "end", type: "end", position: { x: 600, y: 0 }, data: { title: "End", outputs: [] } },
        ],
        edges: [
          { id: "e1", source: "start", target: "forecast" },
          { id: "e2", source: "forecast", target: "post" },
          { id: "e3", source: "post", target: "end" },
        ],
      },
    });
    const response = await GET(apiRequest(), { params: Promise.resolve({ id }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("forecast.json");
    const text = await response.text();
    expect(text).not.toContain("weather-key-export-test");
    const file = JSON.parse(text);
    expect(file.references).toEqual({
      tools: [{ name: "getForecast", source: "Weather" }],
      credentials: [{ name: "hooks" }],
      providers: [],
    });
    // Importing back into this workspace: the tool exists, the credential does not.
    const imported = await importWorkflow(
      apiRequest("POST", { format: "trellis", content: text, dryRun: true }, "http://localhost/api/workflows/import"),
    );
    const { report } = await imported.json();
    expect(
      report.references.map((reference: { name: string; available: boolean }) => [reference.name, reference.available]),
    ).toEqual([
      ["getForecast", true],
      ["hooks", false],
    ]);
    expect(report.notes).toContain('Tool "getForecast" came from the tool source "Weather" in the exporting workspace');
  });

  it("answers 404 for an unknown workflow", async () => {
    const response = await GET(apiRequest(), { params: Promise.resolve({ id: "nope" }) });
    expect(response.status).toBe(404);
  });
});
