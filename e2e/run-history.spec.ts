import { expect, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { RunDetailPage, RunHistoryPage } from "./pages/runs-page";

test("run history lists a workflow's runs; a run's page shows its timeline and inspects a node", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E history ${Date.now()}`, templateDocument());
  const firstRunId = await runToEnd(request, workflowId, { question: "first" });
  const secondRunId = await runToEnd(request, workflowId, { question: "second" });

  // From the editor's toolbar to the history: both runs, newest first.
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("history-link").click();
  await page.waitForURL(`**/workflows/${workflowId}/runs`);
  const history = new RunHistoryPage(page);
  await expect(history.rows).toHaveCount(2);
  await expect(history.rows.first()).toHaveAttribute("data-id", secondRunId);
  await expect(history.row(firstRunId)).toContainText("succeeded");

  // The run page: summary, one timeline row per node, outputs.
  await history.open(firstRunId);
  const run = new RunDetailPage(page);
  await expect(run.detail).toBeVisible();
  await expect(run.status).toHaveAttribute("data-status", "succeeded");
  for (const nodeId of ["start", "template_1", "end"]) {
    await expect(run.timelineRow(nodeId)).toHaveAttribute("data-status", "succeeded");
  }
  await expect(page.getByTestId("run-outputs")).toContainText("Hello first");

  // The inspector opens on the clicked node run with its inputs and outputs.
  await run.timelineRow("template_1").click();
  await expect(run.inspector).toHaveAttribute("data-node-id", "template_1");
  await expect(run.inspector.getByTestId("inspector-outputs")).toContainText("Hello first");
  await run.timelineRow("end").click();
  await expect(run.inspector).toHaveAttribute("data-node-id", "end");

  // Going straight to the second run's address works too (a link from elsewhere).
  await page.goto(`/runs/${secondRunId}`);
  await expect(page.getByTestId("run-outputs")).toContainText("Hello second");
});
