import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { workflowDescriptionSchema, workflowListSchema } from "../schemas";
import { GET as getOne } from "./[slug]/route";
import { GET as list } from "./route";

function document(inputs: Record<string, unknown>[], outputs: string[]): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs } },
      {
        id: "end",
        type: "end",
        position: { x: 200, y: 0 },
        data: { title: "End", outputs: outputs.map((name) => ({ name, value: "x" })) },
      },
    ],
    edges: [{ id: "e1", source: "start", target: "end" }],
  } as WorkflowDocument;
}

const v1 = document([{ name: "city", type: "string", required: true, description: "Where" }], ["forecast"]);
const v2 = document(
  [
    { name: "city", type: "string", required: true, description: "Where" },
    { name: "days", type: "number", default: 3 },
  ],
  ["forecast", "summary"],
);

function get(path: string, key?: string, params: Record<string, string> = {}) {
  const request = new Request(`http://localhost${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return (Object.keys(params).length ? getOne : list)(request, { params: Promise.resolve(params) });
}

describe("discovery: GET /api/v1/workflows and /api/v1/workflows/:slug", () => {
  let test: TestDatabase;
  let secret: string;
  let limited: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    const { id } = await createWorkflow(workspaceId, { name: "Weather", userId: ownerId, draft: v1 });
    await test.db.workflow.update({ where: { id }, data: { description: "Forecast for a city." } });
    await publishWorkflow(id, { note: "", userId: ownerId });
    await test.db.workflow.update({ where: { id }, data: { draft: v2 as unknown as object } });
    await publishWorkflow(id, { note: "", userId: ownerId });
    const other = await createWorkflow(workspaceId, { name: "Other", userId: ownerId, draft: v1 });
    await publishWorkflow(other.id, { note: "", userId: ownerId });
    await createWorkflow(workspaceId, { name: "Draft", userId: ownerId, draft: v1 });
    const counter = await createWorkflow(workspaceId, {
      name: "Counter",
      userId: ownerId,
      draft: document([{ name: "count", type: "number", required: true }], ["total"]),
    });
    await publishWorkflow(counter.id, { note: "", userId: ownerId });
    secret = (await createApiKey(workspaceId, { name: "k", scopes: ["run"] })).secret;
    limited = (await createApiKey(workspaceId, { name: "one", scopes: ["run"], workflowId: other.id })).secret;
  });
  afterAll(async () => test?.dispose());

  it("lists the published workflows the key may run (never drafts), each in the documented shape", async () => {
    const response = await get("/api/v1/workflows", secret);
    expect(response.status).toBe(200);
    const body = workflowListSchema.parse(await response.json());
    expect(body.data.map((workflow) => workflow.slug)).toEqual(["counter", "other", "weather"]);
  });

  it("describes one workflow: inputs with types, outputs and the version served", async () => {
    const response = await get("/api/v1/workflows/weather", secret, { slug: "weather" });
    expect(response.status).toBe(200);
    const body = workflowDescriptionSchema.parse(await response.json());
    expect(body).toEqual({
      slug: "weather",
      name: "Weather",
      description: "Forecast for a city.",
      version: 2,
      inputs: [
        { name: "city", type: "string", required: true, description: "Where" },
        { name: "days", type: "number", required: false, default: 3 },
      ],
      allow_extra_inputs: false,
      input_schema: {
        type: "object",
        properties: { city: { type: "string", description: "Where" }, days: { type: "number", default: 3 } },
        required: ["city"],
        additionalProperties: false,
      },
      outputs: [{ name: "forecast" }, { name: "summary" }],
      // `city` is the only text input, so it takes a chat completion's message.
      chat: { query_input: "city", history_input: null, answer_output: null },
      endpoints: { run: "/api/v1/workflows/weather/run", chat_model: "weather", mcp: "/api/v1/mcp" },
    });
  });

  it("says a workflow without a text input is not a chat model", async () => {
    const body = workflowDescriptionSchema.parse(
      await (await get("/api/v1/workflows/counter", secret, { slug: "counter" })).json(),
    );
    expect(body.chat).toBeNull();
    expect(body.endpoints.chat_model).toBeNull();
  });

  it("a key limited to one workflow lists only it and gets 404 for the others", async () => {
    const body = await (await get("/api/v1/workflows", limited)).json();
    expect(body.data.map((workflow: { slug: string }) => workflow.slug)).toEqual(["other"]);
    const hidden = await get("/api/v1/workflows/weather", limited, { slug: "weather" });
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error.code).toBe("workflow_not_found");
  });

  it("answers 409 for a never-published workflow, 404 for an unknown one, 401 without a key", async () => {
    const draft = await get("/api/v1/workflows/draft", secret, { slug: "draft" });
    expect(draft.status).toBe(409);
    expect((await draft.json()).error.code).toBe("workflow_not_published");
    const unknown = await get("/api/v1/workflows/nope", secret, { slug: "nope" });
    expect(unknown.status).toBe(404);
    const anonymous = await get("/api/v1/workflows");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
  });
});
