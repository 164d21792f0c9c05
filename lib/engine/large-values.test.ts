import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeTool } from "../tools/built-ins/code";
import { createHttpRequestTool } from "../tools/built-ins/http-request";
import { createToolRegistry } from "../tools/registry";
import { MAX_ERROR_MESSAGE_CHARS } from "../workflow/errors";
import { NODE_VALUE_LIMIT_BYTES } from "./executors/call-tool";
import { createTestServices, WorkflowBuilder } from "./testing";
import { eventsOfType, runRecorded } from "./testing/fake-provider";

// Large values come through whole (issue 11): HTTP bodies and code results of 70 KB and 5 MB are
// kept (they used to vanish above 64 KiB while the run said `succeeded`), and a 10 MB error
// message is capped instead of being stored several times over.

describe("large values and error caps", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const size = Number(new URL(request.url ?? "/", "http://x").searchParams.get("bytes") ?? "0");
      const text = "a".repeat(size);
      response.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(text) });
      response.end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const services = () =>
    createTestServices({
      // The SSRF guard stays on; the test server is allowlisted like an operator would.
      tools: createToolRegistry([createHttpRequestTool({ allowlist: [new URL(origin).host] }), createCodeTool()]),
    });

  it.each([70_000, 5_000_000])("an HTTP body of %i bytes is kept whole and the run succeeds", async (bytes) => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("fetch", "http", { method: "GET", url: `${origin}/?bytes=${bytes}` })
      .add("end", "end", { outputs: [{ name: "body", value: ["fetch", "body"] }] })
      .chain("start", "fetch", "end")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    expect((result.outputs.body as string).length).toBe(bytes);
    const end = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "fetch");
    expect(String(end?.outputs.body ?? "").length).toBe(bytes);
    expect(end?.partial).toBeUndefined();
  });

  it.each([70_000, 5_000_000])("a code result of %i characters is kept whole", async (size) => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("code", "code", { code: `function main() { return "b".repeat(${size}); }` })
      .add("end", "end", { outputs: [{ name: "result", value: ["code", "result"] }] })
      .chain("start", "code", "end")
      .build();
    const { result } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    expect((result.outputs.result as string).length).toBe(size);
  });

  it("a body above the node value limit is cut with a marker and the run is partial, never silently", async () => {
    const bytes = NODE_VALUE_LIMIT_BYTES + 1_000_000;
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("fetch", "http", { method: "GET", url: `${origin}/?bytes=${bytes}` })
      .chain("start", "fetch")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("partial");
    expect(result.error).toMatchObject({ code: "output_truncated", nodeId: "fetch" });
    const end = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "fetch");
    expect(end?.partial?.code).toBe("output_truncated");
    expect(end?.outputs.body as string).toContain("[output truncated:");
  });

  it("a code node throwing a 10 MB message stores it capped, once per copy", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("code", "code", { code: `function main() { throw new Error("x".repeat(10000000)); }` })
      .chain("start", "code")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("failed");
    const nodeError = eventsOfType(recorder.events, "node-error")[0];
    expect(nodeError.error.message.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 200);
    expect(nodeError.error.message).toContain("message truncated");
    // Everything the run recorded, all copies together, stays far below the message's size.
    expect(JSON.stringify(recorder.events).length).toBeLessThan(100_000);
  });
});
