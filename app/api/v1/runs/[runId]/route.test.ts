import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { type LocalServer, startLocalServer } from "@/lib/tools/test-support/local-server";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { POST as runPublished } from "../../workflows/[slug]/run/route";
import { POST as cancel } from "./cancel/route";
import { POST as resume } from "./resume/route";
import { GET } from "./route";

/** start → `ask` (human input: one required text field) → end. */
const approval: WorkflowDocument = {
  schemaVersion: 2,
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
    {
      id: "ask",
      type: "human-input",
      position: { x: 200, y: 0 },
      data: { title: "Ask", prompt: "Approve?", fields: [{ name: "verdict", type: "text", required: true }] },
    },
    {
      id: "end",
      type: "end",
      position: { x: 400, y: 0 },
      data: { title: "End", outputs: [{ name: "verdict", value: "{{ask.verdict}}" }] },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "ask" },
    { id: "e2", source: "ask", target: "end" },
  ],
};

/** start → `slow` (HTTP GET answered after 3 s) → end. */
function slowDocument(url: string): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
      { id: "slow", type: "http", position: { x: 200, y: 0 }, data: { title: "Slow", url } },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "status", value: "{{slow.status}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "slow" },
      { id: "e2", source: "slow", target: "end" },
    ],
  };
}

function request(method: string, key: string, body?: unknown): Request {
  return new Request("http://localhost/api/v1", {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}
const slugParams = (slug: string) => ({ params: Promise.resolve({ slug }) });
const runParams = (runId: string) => ({ params: Promise.resolve({ runId }) });

describe("API runs: status, human input, timeouts and cancel", () => {
  let test: TestDatabase;
  let key: string;
  let otherKey: string;
  let slowServer: LocalServer;
  const previousAllowlist = process.env.TRELLIS_HTTP_ALLOWLIST;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { workspaceId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    const user = await test.db.user.findFirstOrThrow();
    slowServer = await startLocalServer((_request, response) => {
      setTimeout(() => response.end("late"), 3000);
    });
    process.env.TRELLIS_HTTP_ALLOWLIST = slowServer.hostPort;
    const approvalId = (await createWorkflow(workspaceId, { name: "Approval", userId: user.id, draft: approval })).id;
    const slowId = (
      await createWorkflow(workspaceId, { name: "Slow", userId: user.id, draft: slowDocument(`${slowServer.origin}/`) })
    ).id;
    await publishWorkflow(approvalId, { note: "v1", userId: user.id });
    await publishWorkflow(slowId, { note: "v1", userId: user.id });
    key = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
    otherKey = (await createApiKey(workspaceId, { name: "slow only", scopes: ["run"], workflowId: slowId })).secret;
  });
  afterAll(async () => {
    if (previousAllowlist === undefined) delete process.env.TRELLIS_HTTP_ALLOWLIST;
    else process.env.TRELLIS_HTTP_ALLOWLIST = previousAllowlist;
    await slowServer?.close();
    await test?.dispose();
  });

  it("a blocking call that reaches human input answers with the question; the answer finishes the run", async () => {
    const started = await runPublished(request("POST", key, { inputs: {} }), slugParams("approval"));
    expect(started.status).toBe(200);
    const waiting = await started.json();
    expect(waiting).toMatchObject({
      status: "waiting",
      waiting: { nodeId: "ask", prompt: "Approve?", fields: [expect.objectContaining({ name: "verdict" })] },
    });

    const bad = await resume(request("POST", key, { nodeId: "ask", answer: {} }), runParams(waiting.runId));
    expect(bad.status).toBe(422);
    const answered = await resume(
      request("POST", key, { nodeId: "ask", answer: { verdict: "yes" } }),
      runParams(waiting.runId),
    );
    expect(answered.status).toBe(202);
    await expect
      .poll(async () => (await (await GET(request("GET", key), runParams(waiting.runId))).json()).status)
      .toBe("succeeded");
    const done = await (await GET(request("GET", key), runParams(waiting.runId))).json();
    expect(done).toMatchObject({ outputs: { verdict: "yes" }, waiting: null, error: null });

    // A key limited to another workflow does not see this run.
    expect((await GET(request("GET", otherKey), runParams(waiting.runId))).status).toBe(404);
  });

  it("a blocking call past timeout_seconds answers 202 with the run id; the run can be cancelled", async () => {
    const started = await runPublished(request("POST", key, { inputs: {}, timeout_seconds: 1 }), slugParams("slow"));
    expect(started.status).toBe(202);
    const body = await started.json();
    expect(body.status).toBe("running");
    const cancelled = await cancel(request("POST", key), runParams(body.runId));
    expect(cancelled.status).toBe(200);
    await expect
      .poll(async () => (await (await GET(request("GET", key), runParams(body.runId))).json()).status)
      .toBe("cancelled");
  });

  it("refuses without a key and hides unknown runs", async () => {
    const anonymous = await GET(new Request("http://localhost/api/v1"), runParams("nope"));
    expect(anonymous.status).toBe(401);
    expect((await GET(request("GET", key), runParams("nope"))).status).toBe(404);
  });
});
