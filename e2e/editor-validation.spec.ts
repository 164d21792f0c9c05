import { expect, test } from "@playwright/test";
import { codeDocument, createWorkflow, llmDocument, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a field shows its problem in words once it is left, and problems name node titles", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E validation ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
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
  await expect(panel.getByTestId("field-label").filter({ hasText: "Input 1" })).toBeVisible();
  await expect(panel.getByTestId("field-label").filter({ hasText: "Timeout (ms)" })).toHaveCount(1);

  // The Problems panel names the node by its title and the field in words.
  await page.getByTestId("problems-toggle").click();
  const problem = page.locator('[data-testid="problem-item"][data-code="invalid_config"]');
  await expect(problem).toContainText("Start");
  await expect(problem).toContainText("Name (input 1):");
  await expect(problem).not.toContainText("inputs.0");
});

test("a code node's card counts its inputs in words", async ({ page, request }) => {
  const document = codeDocument({ code: "function main({ input }) { return { result: input }; }" });
  const workflowId = await createWorkflow(request, `E2E code summary ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await expect(editor.node("template_1").getByTestId("node-summary")).toHaveText("JavaScript · 1 input");
  // An output named result is accepted: the workflow has no problems.
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "0");
});

test("the code editor flags what the sandbox would refuse, and accepts the default", async ({ page, request }) => {
  const document = codeDocument({ code: "return { result: input };" });
  const workflowId = await createWorkflow(request, `E2E code lint ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("template_1");
  const code = editor.field("code");
  await expect(code).toHaveAttribute("data-problems", "1");
  await expect(code.getByTestId("code-problems")).toContainText("inside a function");
  await expect(code.locator(".cm-editor")).toBeVisible();
  // Replace it with a main function: the problem goes away.
  await code.locator(".cm-content").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.type("function main({ input }) { return { result: input }; }");
  await expect(code).toHaveAttribute("data-problems", "0");
});

test("the model picker searches by provider and model, shows capabilities and labels the demo model once", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E model picker ${Date.now()}`, llmDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("llm_1");
  await page.getByTestId("model-picker").click();
  await page.getByTestId("model-picker-search").fill("gpt-4o");
  await expect(page.getByText("default · answered by the offline demo model")).toHaveCount(1);
  const option = page.getByTestId("model-option-default-gpt-4o");
  await expect(option.getByTestId("model-capabilities")).toContainText("tools");
  await option.click();
  await expect(page.getByTestId("model-picker")).toHaveAttribute("data-value", "default::gpt-4o");
  await editor.waitSaved();
});

test("an LLM node's JSON schema is checked as it is written: the problem names the place inside the schema", async ({
  page,
  request,
}) => {
  const document = llmDocument();
  Object.assign(document.nodes[1]!.data, {
    userPrompt: "Where does {{start.question}} happen?",
    responseFormat: "json",
    jsonSchema: { type: "object", properties: { city: { type: "strng" } }, required: ["city"] },
  });
  const workflowId = await createWorkflow(request, `E2E JSON schema ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  // The Problems list says where, in words; clicking it shows the message at the JSON schema field.
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "1");
  await page.getByTestId("problems-toggle").click();
  const problem = page.locator('[data-testid="problem-item"][data-code="invalid_config"]');
  await expect(problem).toContainText("Answer");
  await expect(problem).toContainText("JSON schema (properties.city.type): must be one of string");
  await problem.click();
  const field = page.locator('[data-field-path="jsonSchema"]');
  await expect(field).toHaveAttribute("data-invalid", "true");
  await expect(field.getByTestId("field-issue")).toHaveText(
    "JSON schema (properties.city.type): must be one of string, number, integer, boolean, object, array, null, or a list of them",
  );
});
