import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import { checkProvider } from "./provider-check";

/**
 * The provider Test goes through the SSRF guard (safeFetch with TRELLIS_HTTP_ALLOWLIST) for both
 * of its requests: the `/models` listing and the SDK's 1-token call.
 */
describe("provider check through the SSRF guard", () => {
  let fake: FakeOpenAIServer;
  let redirecting: http.Server;
  let redirectingUrl: string;

  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ models: ["m1"] });
    // No /models, and the chat call answers with a redirect to the fake server (another loopback port).
    redirecting = http.createServer((request, response) => {
      if (request.url?.includes("/chat/completions")) {
        response.writeHead(307, { location: `${fake.url}/chat/completions` });
      } else response.writeHead(404, { "content-type": "application/json" });
      response.end("{}");
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    redirectingUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/v1`;
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    fake.reset();
  });
  afterAll(async () => {
    await fake?.close();
    await new Promise((resolve) => redirecting?.close(resolve));
  });

  it("refuses a loopback base URL when the allowlist does not name it, sending nothing", async () => {
    vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", "");
    const result = await checkProvider({ baseURL: fake.url, apiKey: "sk-secret", models: ["m1"] }, { name: "p" });
    expect(result).toMatchObject({ ok: false, error: { code: "provider_address_blocked" } });
    expect(JSON.stringify(result)).not.toContain("sk-secret");
    expect(fake.requests).toHaveLength(0);
  });

  it("reaches a loopback base URL the allowlist names", async () => {
    vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", `127.0.0.1:${new URL(fake.url).port}`);
    expect(await checkProvider({ baseURL: fake.url, apiKey: "k" }, { name: "p" })).toEqual({
      ok: true,
      method: "models",
      models: ["m1"],
    });
  });

  it("sends the 1-token fallback call through the guard too: a redirect to a host not allowed is refused", async () => {
    vi.stubEnv("TRELLIS_HTTP_ALLOWLIST", `127.0.0.1:${new URL(redirectingUrl).port}`);
    const result = await checkProvider({ baseURL: redirectingUrl, apiKey: "sk-secret", models: ["m1"] }, { name: "p" });
    expect(result.ok).toBe(false);
    // Without the guard the SDK's fetch would follow the 307 and the fake server would answer "ok".
    expect(fake.requests).toHaveLength(0);
  });

  it("the fallback call succeeds when the redirect target is allowed as well", async () => {
    vi.stubEnv(
      "TRELLIS_HTTP_ALLOWLIST",
      `127.0.0.1:${new URL(redirectingUrl).port},127.0.0.1:${new URL(fake.url).port}`,
    );
    const result = await checkProvider({ baseURL: redirectingUrl, apiKey: "k", models: ["m1"] }, { name: "p" });
    expect(result).toMatchObject({ ok: true, method: "completion", model: "m1" });
    expect(fake.requests.length).toBeGreaterThan(0);
  });
});
