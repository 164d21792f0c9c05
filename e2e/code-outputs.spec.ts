import { expect, test } from "@playwright/test";
import { codeDocument, createWorkflow } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a code output of another type than declared fails the run with the output named; fixing the type makes it pass", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(
    request,
    `E2E code outputs ${Date.now()}`,
    codeDocument({ code: "function main({ input }) {\n  return { result: input.length };\n}\n" }),
  );
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.run({ question: "tide" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  const panel = page.getByTestId("run-panel");
  await expect(panel).toContainText("code_output_type");
  await expect(panel.getByTestId("run-error")).toContainText(
    'Node "Compute" failed: Output "result" must be a string, but the code returned a number.',
  );
  await expect(panel.getByTestId("run-error-hint")).toHaveText(
    "Convert the value in the code, or change the output's type.",
  );

  const failedRunId = await panel.getAttribute("data-run-id");

  await editor.select("template_1");
  await editor.field("outputs.0.type").selectOption("number");
  await editor.waitSaved();
  await editor.run({ question: "tide" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("run-outputs")).toContainText("4");

  // The failed run's page says the same, hint included (read from its stored run-end event).
  await page.goto(`/runs/${failedRunId}`);
  await expect(page.getByTestId("run-error")).toContainText('Output "result" must be a string');
  await expect(page.getByTestId("run-error-hint")).toHaveText(
    "Convert the value in the code, or change the output's type.",
  );
});

test("an array output's items are checked against its element type, chosen by name in the panel", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(
    request,
    `E2E typed array output ${Date.now()}`,
    codeDocument({
      code: "function main({ input }) {\n  return { result: [input.length, String(input.length)] };\n}\n",
      outputs: [{ name: "result", type: "array<number>" }],
    }),
  );
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("template_1");
  // The type is offered in words, and the stored value is the typed array type.
  const type = editor.field("outputs.0.type");
  await expect(type.locator("option:checked")).toHaveText("array of numbers");

  await editor.run({ question: "tide" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(page.getByTestId("run-panel").getByTestId("run-error")).toContainText(
    'Output "result" must be an array of numbers, but the code returned an array whose item 1 is a string.',
  );

  await type.selectOption({ label: "array" });
  await editor.waitSaved();
  await editor.run({ question: "tide" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
});
