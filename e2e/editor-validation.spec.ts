import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a field shows its problem in words once it is left, and problems name node titles", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E validation ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await expect(editor.node("start").getByTestId("node-summary")).toHaveText("question");
  await editor.select("start");

  // A bad name: nothing is said while typing, the message appears when the field is left.
  const name = editor.field("inputs.0.name");
  await name.fill("1 question");
  const panel = page.getByTestId("config-panel");
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", /[1-9]/);
  await expect(panel.getByTestId("field-issue")).toHaveCount(0);
  await name.press("Tab");
  await expect(panel.getByTestId("field-issue").first()).toHaveText(
    "Name (input 1): use letters, digits and underscores, not starting with a digit",
  );
  // Labels are words, not keys: list items are numbered, policy fields say their unit.
  await expect(panel.locator(".field-label", { hasText: "Input 1" })).toBeVisible();
  await expect(panel.locator(".field-label", { hasText: "Timeout (ms)" })).toHaveCount(1);

  // The Problems panel names the node by its title and the field in words.
  await page.getByTestId("problems-toggle").click();
  const problem = page.locator('[data-testid="problem-item"][data-code="invalid_config"]');
  await expect(problem).toContainText("Start");
  await expect(problem).toContainText("Name (input 1):");
  await expect(problem).not.toContainText("inputs.0");
});

test("a code node's card counts its inputs in words", async ({ page, request }) => {
  const document = templateDocument();
  document.nodes[1] = {
    id: "template_1",
    type: "code",
    position: { x: 300, y: 0 },
    data: {
      title: "Compute",
      errorStrategy: "fail-run",
      code: "function main({ input }) { return { result: input }; }",
      inputs: [{ name: "input", value: "{{start.question}}" }],
      outputs: [{ name: "result", type: "string" }],
    },
  };
  document.nodes[2].data.outputs = [{ name: "answer", value: "{{template_1.result}}" }];
  const workflowId = await createWorkflow(request, `E2E code summary ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await expect(editor.node("template_1").getByTestId("node-summary")).toHaveText("JavaScript · 1 input");
  // An output named result is accepted: the workflow has no problems.
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "0");
});
