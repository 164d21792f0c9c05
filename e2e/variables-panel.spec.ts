import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { createVariable } from "./support/api-setup";

test("the variables panel lists outputs with types and usages, env variables, and jumps to a reading node", async ({
  page,
  request,
}) => {
  const name = `PANEL_${Date.now()}`;
  await createVariable(request, name, "north");
  const document = templateDocument();
  document.nodes[1].data.template = `Hello {{start.question}} in {{env.${name}}} {{env.MISSING_ONE}}`;
  const workflowId = await createWorkflow(request, `E2E variables ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await page.getByTestId("problems-toggle").click();
  await page.getByTestId("bottom-tab-variables").click();
  const panel = page.getByTestId("variables-panel");
  const question = panel.locator('[data-testid="variable-output"][data-reference="{{start.question}}"]');
  await expect(question).toContainText("string");
  await expect(question.getByTestId("variable-usage")).toHaveText("Greeting");
  const text = panel.locator('[data-testid="variable-output"][data-reference="{{template_1.text}}"]');
  await expect(text.getByTestId("variable-usage")).toHaveText("End");
  await expect(panel.locator('[data-testid="variable-output"][data-reference="{{end.answer}}"]')).toContainText(
    "not used",
  );

  const env = panel.locator(`[data-testid="variable-env"][data-name="${name}"]`);
  await expect(env).toHaveAttribute("data-origin", "workspace");
  await expect(env).toContainText("north");
  await expect(panel.locator('[data-testid="variable-env"][data-name="MISSING_ONE"]')).toHaveAttribute(
    "data-origin",
    "undefined",
  );

  // A usage jumps to the reading node: it is selected and its config panel opens.
  await text.getByTestId("variable-usage").click();
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", "end");
  await question.getByTestId("variable-node").click();
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", "start");
});
