import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

/** start → template_1 → broken (reads a node that does not exist); no end node yet. */
function unfinishedDocument() {
  const document = templateDocument();
  const [start, greeting] = document.nodes;
  return {
    schemaVersion: 2,
    nodes: [
      start,
      greeting,
      {
        id: "broken",
        type: "template",
        position: { x: 600, y: 0 },
        data: { title: "Broken", errorStrategy: "fail-run", template: "{{nowhere.text}}" },
      },
    ],
    edges: [document.edges[0], { id: "edge_broken", source: "template_1", target: "broken" }],
  };
}

test("a node runs alone while the rest of the draft is unfinished; a node with its own errors says which", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E single node ${Date.now()}`, unfinishedDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  // The draft does not compile (no end node, a broken template): the problems list says so.
  await expect(page.getByTestId("problems-toggle")).not.toHaveAttribute("data-error-count", "0");

  await editor.select("template_1");
  await page.getByTestId("run-single-node").click();
  await page.getByTestId("single-node-upstream-start").fill('{ "question": "Ada" }');
  await page.getByTestId("single-node-run-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(editor.runStatus("template_1")).toHaveAttribute("data-status", "succeeded");
  await expect(editor.runStatus("broken")).toHaveCount(0);

  await page.getByTestId("bottom-panel-run").getByLabel("Close panel").click();
  await editor.select("broken");
  await page.getByTestId("run-single-node").click();
  await page.getByTestId("single-node-run-submit").click();
  const dialog = page.getByTestId("single-node-run-dialog");
  await expect(dialog).toContainText("This node has errors");
  // Server errors name the node by its title, not its id.
  await expect(dialog).toContainText("Broken:");
  await expect(dialog).toContainText("nowhere");
});
