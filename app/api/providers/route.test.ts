import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadProvider } from "@/lib/db/provider-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { listModelOptions } from "@/lib/services/model-catalog";
import { checkProvider } from "@/lib/services/provider-check";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { DELETE, GET as getOne, PUT } from "./[name]/route";
import { POST as testProvider } from "./[name]/test/route";
import { GET, POST } from "./route";

const json = (method: string, body: unknown) => apiRequest(method, body, "http://localhost/api/providers");

const params = (name: string) => ({ params: Promise.resolve({ name }) });

describe("provider routes", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let fake: FakeOpenAIServer;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId } = test);
    fake = await startFakeOpenAIServer({ models: ["llama3.1", "qwen2.5"] });
    // The fake server and the refusing one below listen on loopback, which the SSRF guard refuses.
    vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", "127.0.0.1");
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake?.close();
    await test?.dispose();
  });

  it("adds a provider whose key and header values are encrypted and never returned", async () => {
    const created = await POST(
      json("POST", {
        name: "local-llm",
        baseURL: `${fake.url}/`,
        apiKey: "sk-very-secret",
        headers: [{ name: "X-Gateway-Key", value: "gw-secret" }],
        models: ["llama3.1"],
        profiles: { "llama3.1": { toolCalls: true, contextWindow: 128000, inputPricePerMillion: 0.5 } },
      }),
    );
    expect(created.status).toBe(201);
    const listed = await (await GET(apiRequest())).json();
    expect(listed.providers).toEqual([
      expect.objectContaining({
        name: "local-llm",
        baseURL: fake.url,
        hasApiKey: true,
        headers: [{ name: "X-Gateway-Key", hasValue: true }],
        profiles: { "llama3.1": { toolCalls: true, contextWindow: 128000, inputPricePerMillion: 0.5 } },
      }),
    ]);
    expect(listed.mode).toMatchObject({ demoMode: expect.any(Boolean), demoModelAvailable: expect.any(Boolean) });
    const everything = JSON.stringify(listed) + JSON.stringify(await test.db.credential.findMany());
    expect(everything).not.toContain("sk-very-secret");
    expect(everything).not.toContain("gw-secret");
    expect(await loadProvider(workspaceId, "local-llm")).toMatchObject({
      apiKey: "sk-very-secret",
      headers: { "X-Gateway-Key": "gw-secret" },
    });

    // Its models reach the model picker.
    const options = await listModelOptions(workspaceId);
    expect(options).toContainEqual(
      expect.objectContaining({
        provider: "local-llm",
        model: "llama3.1",
        label: "local-llm / llama3.1",
        isDemo: false,
        capabilities: expect.objectContaining({ toolCalls: expect.any(Boolean) }),
      }),
    );
  });

  it("edits without re-entering secrets, refuses renames, reserved and duplicate names", async () => {
    const edited = await PUT(
      json("PUT", { name: "local-llm", baseURL: fake.url, headers: [{ name: "X-Gateway-Key" }], models: ["qwen2.5"] }),
      params("local-llm"),
    );
    expect(edited.status).toBe(200);
    expect(await loadProvider(workspaceId, "local-llm")).toMatchObject({
      apiKey: "sk-very-secret",
      headers: { "X-Gateway-Key": "gw-secret" },
      models: ["qwen2.5"],
    });
    // Moving to another origin does not carry the stored key along.
    const moved = await PUT(
      json("PUT", { name: "local-llm", baseURL: "https://elsewhere.example.com/v1" }),
      params("local-llm"),
    );
    expect(moved.status).toBe(400);
    expect(await moved.json()).toMatchObject({ error: { code: "provider_invalid", issues: [{ path: "apiKey" }] } });
    const movedTest = await testProvider(
      json("POST", { baseURL: "https://elsewhere.example.com/v1" }),
      params("local-llm"),
    );
    expect(await movedTest.json()).toMatchObject({ error: { code: "provider_invalid" } });
    expect((await loadProvider(workspaceId, "local-llm"))?.baseURL).toBe(fake.url);
    const renamed = await PUT(json("PUT", { name: "other", baseURL: fake.url }), params("local-llm"));
    expect(renamed.status).toBe(400);
    const reserved = await POST(json("POST", { name: "default", baseURL: fake.url }));
    expect(await reserved.json()).toMatchObject({ error: { code: "invalid_request", field: "name" } });
    const duplicate = await POST(json("POST", { name: "local-llm", baseURL: fake.url }));
    expect(await duplicate.json()).toMatchObject({ error: { code: "provider_name_taken" } });
    const badUrl = await POST(json("POST", { name: "x", baseURL: "ftp://example.com" }));
    expect(await badUrl.json()).toMatchObject({ error: { field: "baseURL" } });
  });

  it("tests a provider by listing its models, with stored secrets filled in", async () => {
    const response = await testProvider(json("POST", { baseURL: fake.url }), params("local-llm"));
    expect(await response.json()).toEqual({ ok: true, method: "models", models: ["llama3.1", "qwen2.5"] });
  });

  it("refuses to test a loopback provider unless TRELLIS_HTTP_ALLOWLIST lets it in", async () => {
    vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", "");
    try {
      const blocked = await checkProvider({ baseURL: fake.url, apiKey: "k", models: ["qwen2.5"] }, { name: "p" });
      expect(blocked).toMatchObject({ ok: false, error: { code: "provider_address_blocked" } });
      const before = fake.requests.length;
      const viaRoute = await testProvider(json("POST", { baseURL: fake.url }), params("local-llm"));
      expect(await viaRoute.json()).toMatchObject({ ok: false, error: { code: "provider_address_blocked" } });
      expect(fake.requests.length).toBe(before);
    } finally {
      vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", "127.0.0.1");
    }
  });

  it("reports refused keys and unreachable endpoints clearly, and falls back to a 1-token call", async () => {
    const refusing = http.createServer((_request, response) => {
      response.statusCode = 401;
      response.end("{}");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const port = (refusing.address() as AddressInfo).port;
    const refused = await checkProvider({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "bad" }, { name: "p" });
    expect(refused).toMatchObject({ ok: false, error: { code: "provider_auth_failed" } });
    await new Promise((resolve) => refusing.close(resolve));

    const started = Date.now();
    const unreachable = await checkProvider(
      { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "" },
      { name: "p", timeoutMs: 2000 },
    );
    expect(unreachable).toMatchObject({
      ok: false,
      error: { code: "provider_unreachable", message: expect.stringContaining("ECONNREFUSED") },
    });
    expect(Date.now() - started).toBeLessThan(3000);

    // No /models endpoint: one 1-token chat call through the resolver instead.
    const noListing: typeof fetch = async () => new Response("not found", { status: 404 });
    fake.script({ text: "OK" });
    const viaCompletion = await checkProvider(
      { baseURL: fake.url, apiKey: "k", models: ["qwen2.5"] },
      { name: "p", fetch: noListing },
    );
    expect(viaCompletion).toMatchObject({ ok: true, method: "completion", model: "qwen2.5" });
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: "qwen2.5", max_tokens: 1 });
    expect(await checkProvider({ baseURL: fake.url, apiKey: "k" }, { name: "p", fetch: noListing })).toMatchObject({
      ok: false,
      error: { code: "provider_check_failed", message: expect.stringContaining("HTTP 404") },
    });
  });

  it("deletes a provider; its models leave the picker", async () => {
    expect((await DELETE(apiRequest(), params("local-llm"))).status).toBe(204);
    expect((await getOne(apiRequest(), params("local-llm"))).status).toBe(404);
    expect((await DELETE(apiRequest(), params("local-llm"))).status).toBe(404);
    expect((await listModelOptions(workspaceId)).some((option) => option.provider === "local-llm")).toBe(false);
  });
});
