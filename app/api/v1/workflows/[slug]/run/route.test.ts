import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/db/api-key-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { POST } from "./route";

const greeting: WorkflowDocument = {
  schemaVersion: 2,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 0 },
      data: { title: "Start", inputs: [{ name: "name", type: "string", required: true }] },
    },
    {
      id: "hello",
      type: "template",
      position: { x: 200, y: 0 },
      data: { title: "Hello", template: "Hello, {{start.name}}!" },
    },
    {
      id: "end",
      type: "end",
      position: { x: 400, y: 0 },
      data: { title: "End", outputs: [{ name: "greeting", value: "{{hello.text}}" }] },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "hello" },
    { id: "e2", source: "hello", target: "end" },
  ],
};

function call(slug: string, body: unknown, key?: string): Promise<Response> {
  const request = new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return POST(request, { params: Promise.resolve({ slug }) });
}

describe("published workflow endpoint", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let secret: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }))
      .workspaceId;
    const user = await test.db.user.findFirstOrThrow();
    const { id } = await createWorkflow(workspaceId, { name: "Greeter", userId: user.id, draft: greeting });
    await createWorkflow(workspaceId, { name: "Unpublished", userId: user.id, draft: greeting });
    await publishWorkflow(id, { note: "first", userId: user.id });
    secret = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
  });
  afterAll(async () => test?.dispose());

  it("answers a blocking call with the outputs", async () => {
    const response = await call("greeter", { inputs: { name: "Ada" } }, secret);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "succeeded",
      version: 1,
      outputs: { greeting: "Hello, Ada!" },
    });
  });

  it("streams run events as SSE ending with run-end", async () => {
    const response = await call("greeter", { inputs: { name: "Grace" }, response_mode: "streaming" }, secret);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const events = text
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)));
    expect(events[0].type).toBe("run-start");
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      status: "succeeded",
      outputs: { greeting: "Hello, Grace!" },
    });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  });

  it("rejects missing, unknown and revoked keys", async () => {
    expect((await call("greeter", {})).status).toBe(401);
    expect((await call("greeter", {}, "trl_nope")).status).toBe(401);
    const revoked = await createApiKey(workspaceId, { name: "old", scopes: ["run"] });
    await revokeApiKey(workspaceId, revoked.key.id);
    const response = await call("greeter", {}, revoked.secret);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it("names bad input fields and unpublished or unknown workflows", async () => {
    const bad = await call("greeter", { inputs: "nope" }, secret);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("inputs");
    expect((await call("unpublished", {}, secret)).status).toBe(409);
    expect((await call("missing", {}, secret)).status).toBe(404);
    const missingInput = await call("greeter", { inputs: {} }, secret);
    const body = await missingInput.json();
    expect(body.status).toBe("failed");
    expect(body.error.code).toBe("invalid_input");
    expect(body.error.message).toContain("name");
  });
});
