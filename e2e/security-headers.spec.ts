import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";

const EXPECTED = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

test("pages send CSP and anti-framing headers, and the editor runs under the CSP without violations", async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text()))
      violations.push(message.text());
  });
  const id = await createWorkflow(request, `E2E headers ${Date.now()}`, templateDocument());
  const response = await page.goto(`/workflows/${id}`);
  const headers = response?.headers() ?? {};
  for (const [name, value] of Object.entries(EXPECTED)) expect(headers[name], name).toBe(value);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("object-src 'none'");
  await expect(page.locator('[data-id="template_1"]')).toBeVisible();
  // Open a node's panel so CodeMirror and the inspector render too.
  await page.locator('[data-id="template_1"]').click();
  await page.waitForTimeout(500);
  expect(violations).toEqual([]);
});

test("API answers carry the headers; a badly encoded path is 400 JSON, never a plain-text 500", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.headers()["x-content-type-options"]).toBe("nosniff");
  const bad = await request.get("/api/workflows/%ff%fe");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.code).toBe("invalid_path");
  // The proxy skips /api/v1 paths, but not those holding a `%`.
  const badPublished = await request.post("/api/v1/workflows/%ff%fe/run", { data: {} });
  expect(badPublished.status()).toBe(400);
  expect((await badPublished.json()).error.code).toBe("invalid_path");
  const page = await request.get("/workflows/%ff%fe");
  expect(page.status()).toBe(400);
});

test("the published API and the health check are served by their handlers directly, with every security header", async ({
  request,
}) => {
  // scripts/direct-routes.mjs answers these without Next's pipeline, whose answers carry its
  // page router's `Vary: rsc, …`; a Next upgrade that turned the direct path off would show here.
  for (const path of ["/api/health", "/api/v1/models", "/api/v1/models/echo@1", "/api/v1/nowhere"]) {
    const response = await request.get(path);
    const headers = response.headers();
    for (const [name, value] of Object.entries(EXPECTED)) expect(headers[name], `${path} ${name}`).toBe(value);
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["content-type"], path).toContain("application/json");
    // Unknown paths are Next's to answer (the JSON 404 of app/api/[...path]).
    if (path === "/api/v1/nowhere") expect(headers.vary, path).toContain("rsc");
    else expect(headers.vary ?? "", path).not.toContain("rsc");
  }
  expect((await request.get("/api/v1/models")).status()).toBe(401);
  expect((await request.get("/api/v1/models/echo@1")).status()).toBe(401);
  expect((await request.get("/api/v1/nowhere")).status()).toBe(404);
});

test("JSON sent as text/plain is refused with 415, and a cross-site POST with 403", async ({ request }) => {
  const plain = await request.post("/api/workflows", {
    headers: { "content-type": "text/plain" },
    data: JSON.stringify({ name: "CSRF" }),
  });
  expect(plain.status()).toBe(415);
  const crossSite = await request.post("/api/workflows", {
    headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
    data: { name: "CSRF" },
  });
  expect(crossSite.status()).toBe(403);
  expect((await crossSite.json()).error.code).toBe("cross_origin_refused");
});
