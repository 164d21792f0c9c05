import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";

// Issue 14 end to end: a dataset made from two runs in history ("Add to dataset"), evaluated
// against the published version and a changed draft, then the comparison names the broken cases.

async function addRunToDataset(page: Page, runId: string, dataset: { newName?: string; existingName?: string }) {
  await page.goto(`/runs/${runId}`);
  await page.getByTestId("add-to-dataset").click();
  if (dataset.existingName)
    await page.getByTestId("add-to-dataset-select").selectOption({ label: dataset.existingName });
  else await page.getByTestId("add-to-dataset-name").fill(dataset.newName ?? "");
  await expect(page.getByTestId("add-to-dataset-expect")).toBeChecked();
  await page.getByTestId("add-to-dataset-submit").click();
  await expect(page.getByTestId("add-to-dataset-done")).toBeVisible();
}

async function evaluate(page: Page, datasetName: string, version: string): Promise<string> {
  await page.goto("/evaluations");
  await page.getByTestId("evaluate-dataset").selectOption({ label: datasetName });
  await page.getByTestId("evaluate-version").fill(version);
  await page.getByTestId("evaluate-trials").fill("2");
  await page.getByTestId("evaluate-start").click();
  await page.waitForURL("**/evaluations/runs/*");
  await expect(page.getByTestId("evaluation-run")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  return page.url().split("/").at(-1)!;
}

async function shoot(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    for (const width of [1440, 1024]) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/evaluations/${name}-${width}-${theme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Slows (or, with 0, restores) the demo stub's ticket searches; the stub listens on the e2e port + 10. */
function delayTickets(request: APIRequestContext, ms: number) {
  const stub = `http://127.0.0.1:${Number(new URL(test.info().project.use.baseURL!).port) + 10}`;
  return request.post(`${stub}/_control/delay`, { data: { path: "/demo/tickets", ms } });
}

// Later specs get the stub at full speed even when a test here fails half-way.
test.afterEach(async ({ request }) => {
  await delayTickets(request, 0);
});

test("a dataset from two runs, two versions evaluated, the comparison shows what broke", async ({ page, request }) => {
  const name = `E2E eval ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const first = await runToEnd(request, workflowId, { question: "first" });
  const second = await runToEnd(request, workflowId, { question: "second" });

  const datasetName = `${name} cases`;
  await addRunToDataset(page, first, { newName: datasetName });
  await addRunToDataset(page, second, { existingName: datasetName });

  // The dataset: two cases, version 3 (created empty, then one version per added run).
  await page.goto("/evaluations");
  await page.getByTestId("dataset-row").filter({ hasText: datasetName }).getByRole("link").click();
  await expect(page.getByTestId("dataset-name")).toHaveText(datasetName);
  await expect(page.getByTestId("case-row")).toHaveCount(2);
  await expect(page.getByTestId("dataset-editor")).toHaveAttribute("data-version", "3");
  await shoot(page, "dataset");

  // v1 is the workflow as the runs saw it; the draft then changes the greeting.
  expect((await request.post(`/api/workflows/${workflowId}`, { data: { action: "publish", note: "v1" } })).ok()).toBe(
    true,
  );
  const loaded = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    workflow: { draft: ReturnType<typeof templateDocument>; draftRevision: number };
  };
  const draft = loaded.workflow.draft;
  draft.nodes[1]!.data.template = "Hi {{start.question}}";
  const saved = await request.put(`/api/workflows/${workflowId}`, {
    data: { draft, expectedRevision: loaded.workflow.draftRevision },
  });
  expect(saved.ok()).toBe(true);

  const base = await evaluate(page, datasetName, "1");
  await expect(page.getByTestId("total-pass-hat-k")).toHaveText("100%");
  await page.getByTestId("case-toggle").first().click();
  await expect(page.getByTestId("trial")).toHaveCount(2);
  await expect(page.getByTestId("check-result").first()).toContainText("equals");
  await shoot(page, "evaluation-run");

  const candidate = await evaluate(page, datasetName, "draft");
  await expect(page.getByTestId("total-pass-hat-k")).toHaveText("0%");
  await page.getByTestId("case-toggle").first().click();
  await expect(page.getByTestId("check-result").first()).toContainText("Expected Hello");

  await page.goto("/evaluations");
  await page.locator(`[data-testid="evaluation-row"][data-id="${base}"]`).getByTestId("evaluation-pick").check();
  await page.locator(`[data-testid="evaluation-row"][data-id="${candidate}"]`).getByTestId("evaluation-pick").check();
  await page.getByTestId("compare-link").click();
  await page.waitForURL("**/evaluations/compare?**");
  await expect(page.getByTestId("comparison-case")).toHaveCount(2);
  for (const row of await page.getByTestId("comparison-case").all())
    await expect(row).toHaveAttribute("data-change", "broken");
  await expect(page.getByTestId("delta-pass-hat-k")).toContainText("100% → 0% (−100%)");
  await expect(page.getByTestId("comparison-counts")).toHaveText("0 fixed, 2 broken, 0 flaky, 0 unchanged");
  await shoot(page, "comparison");
});

test("the shipped Ticket blockers dataset: live progress over SSE, tokens per mode, cancel", async ({ page }) => {
  // Count plain reads of the evaluation: progress must come from the stream, not from polling.
  let polls = 0;
  page.on("request", (request) => {
    if (/\/api\/evaluations\/[^/?]+$/.test(new URL(request.url()).pathname) && request.method() === "GET") polls += 1;
  });
  // The demo stub answers ticket searches slowly while this test runs, so the evaluation is surely
  // still running when Cancel is clicked (on an idle machine all 120 trials could otherwise end first).
  expect((await delayTickets(page.request, 250)).status()).toBe(202);
  await page.goto("/evaluations");
  await page.getByTestId("evaluate-dataset").selectOption({ label: "Ticket blockers" });
  await page.getByTestId("evaluate-version").fill("draft");
  await page.getByTestId("evaluate-trials").fill("20");
  await page.getByTestId("evaluate-concurrency").fill("1");
  await page.getByTestId("evaluate-start").click();
  await page.waitForURL("**/evaluations/runs/*");
  const run = page.getByTestId("evaluation-run");
  await expect(run).toHaveAttribute("data-status", "running");
  // Trials arrive while it runs, with the function-calling agent's tokens.
  await expect(page.getByTestId("case-result").first()).toHaveAttribute("data-pass-hat-k", "", { timeout: 30_000 });
  await expect
    .poll(async () => Number(await page.getByTestId("evaluation-progress").getAttribute("value")), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2);
  await expect(page.locator('[data-testid="mode-tokens"][data-id="function_call"]')).toContainText("Function calling");
  await shoot(page, "evaluation-live");

  await page.getByTestId("cancel-evaluation").click();
  await expect(run).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await expect(page.getByTestId("cancel-evaluation")).toHaveCount(0);
  const finished = Number(await page.getByTestId("evaluation-progress").getAttribute("value"));
  expect(finished).toBeGreaterThanOrEqual(2);
  expect(finished).toBeLessThan(120);
  expect(polls).toBe(0);
  await shoot(page, "evaluation-cancelled");
});
