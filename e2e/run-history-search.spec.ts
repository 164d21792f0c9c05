import { expect, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";
import { RunHistoryPage } from "./pages/runs-page";

test("searching the history for a phrase shows the matching run with the match highlighted", async ({
  page,
  request,
}) => {
  const word = `zanzibar${Date.now()}`;
  const workflowId = await createWorkflow(request, `E2E search ${Date.now()}`, templateDocument());
  const match = await runToEnd(request, workflowId, { question: `where is my ${word} parcel` });
  await runToEnd(request, workflowId, { question: "something else <b>entirely</b>" });

  const history = new RunHistoryPage(page);
  await page.goto("/runs");
  await expect(history.rows.first()).toBeVisible();
  await page.getByTestId("history-search").fill(`"my ${word} parcel"`);
  await page.getByTestId("history-search").press("Enter");
  await expect(history.rows).toHaveCount(1);
  await expect(history.row(match)).toBeVisible();
  const highlighted = history.row(match).getByTestId("run-snippet").locator("mark");
  await expect(highlighted.first()).toBeVisible();
  await expect(highlighted).toContainText([word]);
  // The search is in the address: the link opens the same view.
  expect(new URL(page.url()).searchParams.get("q")).toBe(`"my ${word} parcel"`);
  await page.reload();
  await expect(history.rows).toHaveCount(1);
  await expect(page.getByTestId("history-search")).toHaveValue(`"my ${word} parcel"`);

  // Markup inside a run's text is shown as text, never interpreted.
  await page.getByTestId("history-search").fill("entirely");
  await page.getByTestId("history-search").press("Enter");
  await expect(history.rows).toHaveCount(1);
  await expect(history.rows.first().getByTestId("run-snippet")).toContainText("<b>");
});

test("a status filter in the URL is applied and shown, and changing it updates the URL", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E status URL ${Date.now()}`, templateDocument());
  const succeeded = await runToEnd(request, workflowId, { question: "fine" });

  const history = new RunHistoryPage(page);
  await page.goto(`/workflows/${workflowId}/runs?status=failed`);
  await expect(page.getByTestId("history-status")).toHaveValue("failed");
  await expect(page.getByTestId("run-history-empty")).toContainText("No runs match");

  await page.goto(`/workflows/${workflowId}/runs?status=succeeded`);
  await expect(history.rows).toHaveCount(1);
  await expect(history.row(succeeded)).toBeVisible();

  await page.getByTestId("history-status").selectOption("cancelled");
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(page.getByTestId("run-history-empty")).toBeVisible();
  await page.getByTestId("history-clear").click();
  await expect(history.rows).toHaveCount(1);

  // A bad value in a shared link is named, not a blank page.
  await page.goto(`/workflows/${workflowId}/runs?minCost=lots`);
  await expect(page.getByTestId("history-error")).toContainText("minCost");
});
