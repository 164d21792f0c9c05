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
