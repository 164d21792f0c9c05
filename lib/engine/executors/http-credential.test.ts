import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpRequestTool } from "../../tools/built-ins/http-request";
import type { HttpAuth } from "../../tools/http/http-auth";
import { createToolRegistry } from "../../tools/registry";
import { type LocalServer, startLocalServer } from "../../tools/test-support/local-server";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createTestServices, WorkflowBuilder } from "../testing";

const CREDENTIALS: Record<string, HttpAuth> = {
  "weather-key": { credential: "weather-key", type: "header", name: "X-Api-Token", secret: "tok-123-secret" },
  "billing-login": { credential: "billing-login", type: "basic", username: "ada", secret: "pw-456-secret" },
  "maps-key": { credential: "maps-key", type: "query", name: "key", secret: "q-789-secret" },
};

describe("http node with a stored credential", () => {
  let server: LocalServer;
  beforeAll(async () => {
    // Answers whether each secret arrived, without echoing it (so the whole record can be searched).
    server = await startLocalServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://local");
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          path: url.pathname,
          token: request.headers["x-api-token"] === "tok-123-secret",
          basic: request.headers.authorization === `Basic ${Buffer.from("ada:pw-456-secret").toString("base64")}`,
          key: url.searchParams.get("key") === "q-789-secret",
        }),
      );
    });
  });
  afterAll(() => server.close());

  async function run(credential: string) {
    const recorder = new MemoryRunRecorder();
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("req", "http", { url: `${server.origin}/data`, credential })
      .add("end", "end", { outputs: [{ name: "json", value: ["req", "json"] }] })
      .chain("start", "req", "end")
      .build();
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: `run-${credential}`,
        recorder,
        services: {
          ...createTestServices({
            tools: createToolRegistry([createHttpRequestTool({ allowlist: [server.hostPort] })]),
          }),
          httpAuth: async (name) => CREDENTIALS[name],
        },
      },
    );
    return { result, recorded: JSON.stringify(recorder.events) };
  }

  it.each([
    ["weather-key", { token: true, basic: false, key: false }],
    ["billing-login", { token: false, basic: true, key: false }],
    ["maps-key", { token: false, basic: false, key: true }],
  ])("applies %s to the request and keeps the secret out of the run record", async (name, received) => {
    const { result, recorded } = await run(name);
    expect(result.status).toBe("succeeded");
    expect(result.outputs.json).toEqual({ path: "/data", ...received });
    // The record says a credential was used, and where, but never its value.
    expect(recorded).toContain(`credential \\"${name}\\"`);
    for (const secret of ["tok-123", "pw-456", "q-789", Buffer.from("ada:pw-456-secret").toString("base64")]) {
      expect(recorded).not.toContain(secret);
    }
  });

  it("fails the node with credential_not_found when the name is unknown", async () => {
    const { result, recorded } = await run("nope");
    expect(result.status).toBe("failed");
    expect(recorded).toContain("credential_not_found");
    expect(recorded).toContain('No HTTP credential named \\"nope\\"');
  });
});

describe("http node credential bound to allowed hosts", () => {
  let allowedServer: LocalServer;
  let otherServer: LocalServer;
  const received: { server: string; path: string; token: string | undefined }[] = [];
  beforeAll(async () => {
    const handler =
      (name: string) =>
      (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => {
        const token = request.headers["x-api-token"];
        received.push({
          server: name,
          path: new URL(request.url ?? "/", "http://local").pathname,
          token: typeof token === "string" ? token : undefined,
        });
        response.setHeader("content-type", "application/json");
        response.end("{}");
      };
    allowedServer = await startLocalServer(handler("allowed"));
    otherServer = await startLocalServer(handler("other"));
  });
  afterAll(() => Promise.all([allowedServer.close(), otherServer.close()]));

  async function run(url: string, allowedHosts: string[]) {
    const recorder = new MemoryRunRecorder();
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("req", "http", { url, credential: "bound" })
      .add("end", "end", { outputs: [{ name: "status", value: ["req", "status"] }] })
      .chain("start", "req", "end")
      .build();
    received.length = 0;
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: `run-bound-${Math.random()}`,
        recorder,
        services: {
          ...createTestServices({
            tools: createToolRegistry([
              createHttpRequestTool({ allowlist: [allowedServer.hostPort, otherServer.hostPort] }),
            ]),
          }),
          httpAuth: async () => ({
            credential: "bound",
            type: "header",
            name: "X-Api-Token",
            secret: "bound-secret-1",
            allowedHosts,
          }),
        },
      },
    );
    return { result, recorded: JSON.stringify(recorder.events), nodeRuns: recorder.nodeRuns() };
  }

  it("sends the header to an allowed host", async () => {
    const { result } = await run(`${allowedServer.origin}/v1/data`, [allowedServer.hostPort]);
    expect(result.status).toBe("succeeded");
    expect(received).toEqual([{ server: "allowed", path: "/v1/data", token: "bound-secret-1" }]);
  });

  it("refuses another loopback port with credential_host_not_allowed, sending nothing", async () => {
    const { result, recorded, nodeRuns } = await run(`${otherServer.origin}/v1/data`, [allowedServer.hostPort]);
    expect(result.status).toBe("failed");
    expect(received).toEqual([]);
    expect(JSON.stringify(nodeRuns.find((nodeRun) => nodeRun.nodeId === "req"))).toContain(
      "credential_host_not_allowed",
    );
    expect(recorded).not.toContain("bound-secret-1");
  });

  it("refuses a path outside a URL prefix and allows one inside it", async () => {
    const prefix = [`${allowedServer.origin}/v1/`];
    const outside = await run(`${allowedServer.origin}/admin/data`, prefix);
    expect(outside.result.status).toBe("failed");
    expect(outside.recorded).toContain("credential_host_not_allowed");
    expect(received).toEqual([]);
    const inside = await run(`${allowedServer.origin}/v1/data`, prefix);
    expect(inside.result.status).toBe("succeeded");
    expect(received).toEqual([{ server: "allowed", path: "/v1/data", token: "bound-secret-1" }]);
  });
});
