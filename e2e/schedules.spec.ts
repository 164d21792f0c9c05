import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a workflow gets a cron schedule in the editor: a bad expression is named, the next runs are shown, it can be removed", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E schedule ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("schedule-button").click();
  const dialog = page.getByTestId("schedule-dialog");
  await page.locator("#schedule-cron").fill("0 25 * * *");
  await page.locator("#schedule-timezone").fill("UTC");
  await page.getByTestId("schedule-save").click();
  await expect(dialog.getByTestId("schedule-error-cron")).toContainText("hour");

  await page.locator("#schedule-preset").selectOption({ label: "Every hour" });
  await expect(page.locator("#schedule-cron")).toHaveValue("0 * * * *");
  await page.locator("#schedule-inputs").fill('{ "question": "tick" }');
  await page.getByTestId("schedule-save").click();
  await expect(dialog.getByTestId("schedule-next-runs").locator("li")).toHaveCount(3);

  // Stored: a reload shows it again.
  await page.reload();
  await editor.goto(workflowId);
  await page.getByTestId("schedule-button").click();
  await expect(page.locator("#schedule-cron")).toHaveValue("0 * * * *");
  await expect(page.locator("#schedule-inputs")).toHaveValue(/"question": "tick"/);
  await page.getByTestId("schedule-remove").click();
  await expect(dialog.getByTestId("schedule-status")).toHaveCount(0);
  const stored = await request.get(`/api/workflows/${workflowId}/schedule`);
  expect((await stored.json()).schedule).toBeNull();
});
