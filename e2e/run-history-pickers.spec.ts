import { expect, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";
import { createApiKey, runWithApiKey } from "./support/api-setup";

// The history's workflow, version and API key pickers: labelled, reachable and usable from the
// keyboard, each choice kept in the URL (a filtered view is a link that reopens as it was).
test("the run history filters by workflow, version and API key with pickers kept in the URL", async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const name = `E2E pickers ${stamp}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const otherId = await createWorkflow(request, `E2E pickers other ${stamp}`, templateDocument());
  const published = await request.post(`/api/workflows/${workflowId}`, { data: { action: "publish", note: "first" } });
  expect(published.status()).toBe(201);
  const keyName = `picker key ${stamp}`;
  const secret = await createApiKey(request, keyName);
  const byKey = await runWithApiKey(page.request, name.toLowerCase().replaceAll(" ", "-"), secret, {
    inputs: { question: "key" },
  });
  expect(byKey.status()).toBe(200);
  const keyRunId = ((await byKey.json()) as { runId: string }).runId;
  const draftRunId = await runToEnd(request, workflowId, { question: "draft" });
  await runToEnd(request, otherId, { question: "elsewhere" });

  await page.goto("/runs");
  const rows = page.getByTestId("run-row");
  await expect(rows.first()).toBeVisible();

  // Workflow, from the keyboard: focus, open, type to filter, Enter picks.
  const workflowPicker = page.getByRole("button", { name: /^Workflow/ });
  await expect(workflowPicker).toHaveAttribute("data-testid", "history-workflow");
  await workflowPicker.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("history-workflow-search")).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`workflowId=${workflowId}`));
  await expect(workflowPicker).toHaveText(name);
  await expect(rows).toHaveCount(2);

  // Version: the chosen workflow's published versions.
  await page.getByTestId("history-version").click();
  await page.locator('[data-testid="history-version-option"]').filter({ hasText: "v1" }).click();
  await expect(page).toHaveURL(/versionId=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", keyRunId);

  // Back to any version; then the API key, by name.
  await page.getByTestId("history-version").click();
  await page.getByTestId("history-version-any").click();
  await expect(page).not.toHaveURL(/versionId=/);
  await expect(rows).toHaveCount(2);
  await page.getByTestId("history-api-key").click();
  await page.getByTestId("history-api-key-search").fill(keyName);
  await page.locator('[data-testid="history-api-key-option"]').filter({ hasText: keyName }).click();
  await expect(page).toHaveURL(/apiKeyId=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", keyRunId);

  // The link reopens the same view, the pickers showing names, not ids.
  await page.reload();
  await expect(page.getByTestId("history-workflow")).toHaveText(name);
  await expect(page.getByTestId("history-api-key")).toHaveText(keyName);
  await expect(rows).toHaveCount(1);

  // Another workflow clears the version; Escape closes a picker without changing anything.
  await page.getByTestId("history-api-key").click();
  await page.getByTestId("history-api-key-any").click();
  await expect(rows).toHaveCount(2);
  await expect(page.locator(`[data-testid="run-row"][data-id="${draftRunId}"]`)).toBeVisible();
  await page.getByTestId("history-workflow").click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("history-workflow-search")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`workflowId=${workflowId}`));
});
