import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { createServiceRoot, installServiceRoot, type ServiceRoot } from "@/lib/services/root";
import type { RunExecution, StartRunInput } from "@/lib/services/run-execution";
import { RunService } from "@/lib/services/run-service";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { POST } from "./route";

/**
 * A streamed published run sends its SSE headers before the run is set up (Run row, services,
 * engine), while everything that makes a request the client's error is still a JSON 4xx; a start
 * that fails after the headers is told in the stream (`error`, then `run-end` failed).
 */
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

function call(body: unknown, key: string, slug = "greeter"): Promise<Response> {
  const request = new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return POST(request, { params: Promise.resolve({ slug }) });
}

/** SSE blocks with a `data:` line, as `{ event, data }`. */
function sseEvents(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
      data: JSON.parse(block.slice(block.indexOf("data: ") + 6)),
    }));
}

/** A run service whose `start` waits for `release()`, or fails with `failWith`, before doing anything. */
class GatedRunService extends RunService {
  starts = 0;
  failWith: Error | undefined;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  release(): void {
    this.open();
  }

  override async start(input: StartRunInput): ReturnType<RunExecution["start"]> {
    this.starts++;
    await this.gate;
    if (this.failWith) throw this.failWith;
    return super.start(input);
  }
}

describe("streamed published runs: headers first", () => {
  let test: TestDatabase;
  let secret: string;
  let runs: GatedRunService;
  let previous: ServiceRoot | undefined;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    const { id } = await createWorkflow(workspaceId, { name: "Greeter", userId: ownerId, draft: greeting });
    await publishWorkflow(id, { note: "first", userId: ownerId });
    secret = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
    runs = new GatedRunService();
    previous = installServiceRoot(createServiceRoot({ runs }));
  });
  afterAll(async () => {
    if (previous) installServiceRoot(previous);
    await test?.dispose();
  });
  beforeEach(() => {
    runs.failWith = undefined;
    runs.release();
  });

  it("answers with the SSE headers before the Run row exists, then streams the run to run-end", async () => {
    runs.hold();
    const before = await test.db.run.count();
    const response = await call({ inputs: { name: "Grace" }, response_mode: "streaming" }, secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The first chunk is there while the run's start is still held: no Run row yet.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe(": accepted\n\n");
    expect(runs.starts).toBe(1);
    expect(await test.db.run.count()).toBe(before);
    runs.release();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events = sseEvents(text);
    expect(events[0]?.data.type).toBe("run-start");
    expect(events.at(-1)?.data).toMatchObject({
      type: "run-end",
      status: "succeeded",
      outputs: { greeting: "Hello, Grace!" },
    });
    expect(events.map((event) => event.data.seq)).toEqual(events.map((_, index) => index + 1));
    expect(await test.db.run.count()).toBe(before + 1);
  });

  it("still answers bad requests with a JSON 4xx and starts nothing", async () => {
    const before = await test.db.run.count();
    const startsBefore = runs.starts;
    const cases: [unknown, string, number, string][] = [
      [{ inputs: {}, response_mode: "streaming" }, secret, 422, "invalid_input"],
      [{ inputs: { name: 42 }, response_mode: "streaming" }, secret, 422, "invalid_input"],
      [{ inputs: { name: "Ada" }, version: 9, response_mode: "streaming" }, secret, 404, "workflow_version_not_found"],
      [{ inputs: "nope", response_mode: "streaming" }, secret, 400, "invalid_request"],
      [{ inputs: { name: "Ada" }, response_mode: "streaming" }, "trl_unknown", 401, "invalid_api_key"],
    ];
    for (const [body, key, status, code] of cases) {
      const response = await call(body, key);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect((await response.json()).error.code).toBe(code);
    }
    const missing = await call({ inputs: { name: "Ada" }, response_mode: "streaming" }, secret, "missing");
    expect(missing.status).toBe(404);
    expect(runs.starts).toBe(startsBefore);
    expect(await test.db.run.count()).toBe(before);
  });

  it("tells a start that fails after the headers as an SSE error and a failed run-end, and leaves no run running", async () => {
    runs.failWith = new Error("the database went away");
    const response = await call({ inputs: { name: "Ada" }, response_mode: "streaming" }, secret);
    expect(response.status).toBe(200);
    const events = sseEvents(await response.text());
    expect(events.map((event) => event.event)).toEqual(["error", "run-end"]);
    // The error says no more than a JSON 500 would.
    expect(events[0]?.data).toEqual({ code: "internal_error", message: "Something went wrong on the server." });
    expect(events[1]?.data).toMatchObject({
      type: "run-end",
      status: "failed",
      error: { code: "internal_error" },
    });
    expect(await test.db.run.count({ where: { status: { in: ["running", "queued"] } } })).toBe(0);
  });
});
