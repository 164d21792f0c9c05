import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("the publish dialog's API panel shows calls filled in with the workflow's slug and inputs, and they work", async ({
  page,
}) => {
  const name = `E2E panel ${Date.now()}`;
  const workflowId = await createWorkflow(page.request, name, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("publish-button").click();
  const panel = page.getByTestId("publish-endpoint");
  await expect(panel).toBeVisible();
  const curl = (await page.getByTestId("api-example-curl").textContent()) ?? "";
  expect(curl).toMatch(/\/api\/v1\/workflows\/e2e-panel-\d+\/run/);
  expect(curl).toContain('"question":"<question>"');
  // Keyboard: the tabs are reachable and switch with the arrow keys.
  await page.getByTestId("api-example-tab-curl").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("api-example-openAiSdk")).toContainText(/model: "e2e-panel-\d+"/);
  await page.getByTestId("api-example-tab-python").click();
  await expect(page.getByTestId("api-example-python")).toContainText('"question": "<question>"');
  await page.getByTestId("api-example-tab-fetchSse").click();
  await expect(page.getByTestId("api-example-fetchSse")).toContainText('response_mode: "streaming"');
  await page.screenshot({ path: "test-results/api-panel.png" });
  // At 1024 px the five example tabs stay on one row, and a long line scrolls rather than
  // breaking inside a word (the URL, "blocking").
  await page.setViewportSize({ width: 1024, height: 900 });
  const tabs = page.getByRole("tablist", { name: "Example language" }).getByRole("tab");
  await expect(tabs).toHaveCount(5);
  const rows = new Set<number>();
  for (const tab of await tabs.all()) rows.add(Math.round((await tab.boundingBox())?.y ?? -1));
  expect(rows.size).toBe(1);
  await page.getByTestId("api-example-tab-curl").click();
  const curlBlock = page.getByTestId("api-example-curl");
  const renderedLines = await curlBlock.evaluate((element) => {
    const style = getComputedStyle(element);
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    return Math.round((element.scrollHeight - padding) / Number.parseFloat(style.lineHeight));
  });
  expect(renderedLines).toBe(curl.split("\n").length);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("publish-submit").click();
  await expect(page.getByTestId("published-version")).toHaveAttribute("data-version", "1");

  // The curl example's body, sent with a real key, runs the workflow.
  await page.goto("/settings/api-keys");
  await page.locator("#api-key-name").fill("panel client");
  await page.getByTestId("create-api-key").click();
  const secret = (await page.getByTestId("api-key-secret").textContent()) ?? "";
  const url = /POST (\S+)/.exec(curl)?.[1] ?? "";
  const body = JSON.parse(/-d '(.*)'/.exec(curl)?.[1] ?? "null") as { inputs: Record<string, unknown> };
  body.inputs.question = "Ada";
  const answered = await page.request.post(url, {
    headers: { authorization: `Bearer ${secret}`, cookie: "", "idempotency-key": `e2e-${Date.now()}` },
    data: body,
  });
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toMatchObject({ status: "succeeded", outputs: { answer: "Hello Ada" } });
});

test("the API reference page renders the OpenAPI document with every operation and its error codes", async ({
  page,
}) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  for (const operation of ["runWorkflow", "listWorkflows", "getWorkflow", "mcp", "createChatCompletion", "runEvents"]) {
    await expect(page.getByTestId(`api-operation-${operation}`)).toBeVisible();
  }
  await expect(page.getByTestId("api-responses-runWorkflow")).toContainText("idempotency_key_reused");
  await expect(page.getByTestId("api-responses-runWorkflow")).toContainText("422");
  // Each operation names the key scopes that allow it.
  await expect(page.getByTestId("api-operation-runWorkflow")).toContainText('API key with the "run" scope');
  await expect(page.getByTestId("api-operation-setServedVersion")).toContainText('API key with the "manage" scope');
  await expect(page.getByTestId("api-operation-getRun")).toContainText('API key with the "run" or "read-runs" scope');
  const json = await page.request.get("/api/v1/openapi.json");
  expect(json.status()).toBe(200);
  expect((await json.json()).openapi).toBe("3.1.0");
  await page.screenshot({ path: "test-results/api-docs.png", fullPage: false });
});
