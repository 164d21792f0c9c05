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

test("the history filters by status and shows why a run failed; the workspace's runs are listed across workflows", async ({
  page,
  request,
}) => {
  const name = `E2E filters ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const succeeded = await runToEnd(request, workflowId, { question: "fine" });
  // The same workflow with a code node that throws: the run fails with the node's own code.
  const broken = templateDocument();
  broken.nodes[1] = {
    id: "template_1",
    type: "code",
    position: { x: 300, y: 0 },
    data: {
      title: "Greeting",
      errorStrategy: "fail-run",
      language: "javascript",
      code: 'function main() { throw new Error("no greeting today"); }',
      inputs: [],
      outputs: [{ name: "text", type: "string" }],
    },
  };
  const failed = await runToEnd(request, workflowId, { question: "x" }, { expectedStatus: "failed", document: broken });

  const history = new RunHistoryPage(page);
  await history.goto(workflowId);
  await expect(history.rows).toHaveCount(2);
  await page.getByTestId("history-status").selectOption("failed");
  await expect(history.rows).toHaveCount(1);
  await expect(history.row(failed)).toContainText(/code_error|tool_failed/);
  await page.getByTestId("history-status").selectOption("succeeded");
  await expect(history.rows).toHaveCount(1);
  await expect(history.row(succeeded)).toBeVisible();

  // All runs of the workspace, newest first, each with its workflow.
  await page.goto("/workflows");
  await page.getByTestId("nav-runs").click();
  await page.waitForURL("**/runs");
  await expect(history.rows.first()).toBeVisible();
  await expect(history.row(failed)).toContainText(name);
  await page.getByTestId("history-trigger").selectOption("schedule");
  await expect(page.getByTestId("run-history-empty")).toBeVisible();
});
