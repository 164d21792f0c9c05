import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("an admin adds and edits a workspace variable, and a run reads it as {{env.NAME}}", async ({ page, request }) => {
  const name = `SUPPORT_${Date.now()}`;
  await page.goto("/settings/variables");
  await page.locator("#variable-name").fill("bad-name");
  await page.locator("#variable-value").fill("help@example.test");
  await page.getByTestId("add-variable").click();
  // The name is refused at that field, in words, and what was typed stays.
  await expect(page.getByTestId("variable-error-name")).toContainText("letters, digits and underscores");
  await expect(page.locator("#variable-value")).toHaveValue("help@example.test");
  await page.locator("#variable-name").fill(name);
  await page.getByTestId("add-variable").click();
  const row = page.locator(`[data-testid="variable-row"][data-name="${name}"]`);
  await expect(row).toContainText(`{{env.${name}}}`);
  await expect(row.getByTestId("variable-value")).toHaveValue("help@example.test");

  await row.getByTestId("variable-value").fill("desk@example.test");
  await row.getByTestId("save-variable").click();
  await page.reload();
  await expect(
    page.locator(`[data-testid="variable-row"][data-name="${name}"]`).getByTestId("variable-value"),
  ).toHaveValue("desk@example.test");

  const document = templateDocument();
  document.nodes[1].data.template = `Write to {{env.${name}}}`;
  const workflowId = await createWorkflow(request, `E2E env ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.run({ question: "hi" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await page.locator('[data-testid="timeline-row"][data-node-id="template_1"]').click();
  await expect(page.getByTestId("node-run-inspector").getByTestId("inspector-outputs")).toContainText(
    "Write to desk@example.test",
  );
});
