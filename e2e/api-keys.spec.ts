import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("publish a workflow, create an API key in settings, call the endpoint with it, revoke it", async ({
  page,
  request,
}) => {
  const name = `E2E api ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("publish-button").click();
  // The dialog says where the published workflow answers.
  const endpoint = (await page.getByTestId("publish-endpoint-url").textContent()) ?? "";
  expect(endpoint).toMatch(/\/api\/v1\/workflows\/e2e-api-\d+\/run$/);
  await page.getByTestId("publish-submit").click();
  await expect(page.getByTestId("published-version")).toHaveAttribute("data-version", "1");

  await page.goto("/settings/api-keys");
  await page.getByTestId("create-api-key").click();
  await expect(page.getByTestId("api-key-error-name")).toBeVisible();
  await page.locator("#api-key-name").fill("e2e client");
  await page.locator("#api-key-workflow").selectOption(workflowId);
  await page.getByTestId("create-api-key").click();
  const secret = (await page.getByTestId("api-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^trl_/);
  const row = page.locator('[data-testid="api-key-row"][data-name="e2e client"]').first();
  await expect(row).toContainText(name);

  // The key works from a client without any session cookie.
  const call = () =>
    page.request.post(endpoint, {
      headers: { authorization: `Bearer ${secret}`, cookie: "" },
      data: { inputs: { question: "Ada" } },
    });
  const answered = await call();
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toMatchObject({ status: "succeeded", outputs: { answer: "Hello Ada" } });

  // Shown once: a reload no longer has it.
  await page.reload();
  await expect(page.getByTestId("api-key-secret")).toHaveCount(0);
  await page
    .locator('[data-testid="api-key-row"][data-name="e2e client"]')
    .first()
    .getByTestId("revoke-api-key")
    .click();
  await page.getByTestId("confirm-revoke-api-key").click();
  await expect(page.getByTestId("api-keys-message")).toContainText("Revoked");
  expect((await call()).status()).toBe(401);
});

test("API key scopes and limits from settings: a missing scope is 403, an edit grants it, the key's own rate limit answers 429", async ({
  page,
  request,
}) => {
  const name = `E2E key limits ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const published = await request.post(`/api/workflows/${workflowId}`, { data: { action: "publish", note: "" } });
  expect(published.status()).toBe(201);
  const slug = name.toLowerCase().replaceAll(" ", "-");

  await page.goto("/settings/api-keys");
  const keyName = `limited ${Date.now()}`;
  await page.locator("#api-key-name").fill(keyName);
  await page.getByTestId("api-key-scope-run").uncheck();
  await page.getByTestId("api-key-scope-read-runs").check();
  await page.locator("#api-key-workflow").selectOption(workflowId);
  await page.locator("#api-key-origins").fill("https://app.example.com");
  await page.getByTestId("create-api-key").click();
  const secret = (await page.getByTestId("api-key-secret").textContent()) ?? "";
  const row = page.locator(`[data-testid="api-key-row"][data-name="${keyName}"]`);
  await expect(row.getByTestId("api-key-scopes")).toHaveText("read-runs");
  await expect(row.getByTestId("api-key-limits")).toContainText("CORS: https://app.example.com");

  const call = () =>
    page.request.post(`/api/v1/workflows/${slug}/run`, {
      headers: { authorization: `Bearer ${secret}`, cookie: "", origin: "https://app.example.com" },
      data: { inputs: { question: "Ada" } },
    });
  const refused = await call();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("api_key_scope_missing");
  expect(refused.headers()["access-control-allow-origin"]).toBe("https://app.example.com");

  await row.getByTestId("edit-api-key").click();
  await page.getByTestId("edit-api-key-scope-run").check();
  await page.locator("#edit-api-key-rate-limit").fill("1");
  await page.getByTestId("save-api-key").click();
  await expect(page.getByTestId("edit-api-key-dialog")).toBeHidden();
  await expect(row.getByTestId("api-key-scopes")).toHaveText("run, read-runs");
  await expect(row.getByTestId("api-key-limits")).toContainText("1/min");

  const answered = await call();
  expect(answered.status()).toBe(200);
  const limited = await call();
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(row.getByTestId("api-key-last-used")).not.toHaveText("never");
});
