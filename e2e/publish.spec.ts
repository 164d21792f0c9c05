import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a draft with errors is not published: the dialog lists the server's issues and each opens its node", async ({
  page,
  request,
}) => {
  const broken = templateDocument();
  broken.nodes[1]!.data = { ...broken.nodes[1]!.data, template: "Hello {{nowhere.name}}" };
  const workflowId = await createWorkflow(request, `E2E publish ${Date.now()}`, broken);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("publish-button").click();
  await page.getByTestId("publish-submit").click();

  const issue = page.getByTestId("publish-issue").first();
  await expect(issue).toBeVisible();
  await expect(issue).toHaveAttribute("data-node-id", "template_1");
  // Issues name the node's title, not its id.
  await expect(issue).toContainText("Greeting");
  await expect(page.getByTestId("published-version")).not.toHaveAttribute("data-version", "1");

  await issue.click();
  await expect(page.getByTestId("publish-dialog")).toBeHidden();
  await expect(page.locator('.react-flow__node[data-id="template_1"]')).toHaveClass(/selected/);
});
