import { expect, test } from "@playwright/test";
import { createWorkflow, llmDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

// Issue 13: after narrowing the list by typing, a pick was sometimes dropped (about 1 run in 3).
// The cause: the completion result went back to "pending" on each character until the source
// answered again, and CodeMirror ignores a click or Enter on the list drawn meanwhile (disabled).
// The test checks that cause directly too: the list is never disabled while narrowing, and the
// parent's re-renders on each keystroke keep the same editor.
test("typing {{ in an LLM prompt offers upstream variables and inserts the chosen one", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E prompt ${Date.now()}`, llmDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("llm_1");

  const prompt = editor.field("userPrompt");
  await prompt.click();
  await prompt.pressSequentially("Answer this: {{");
  await expect(editor.variableAutocomplete).toBeVisible();
  const option = editor.variableAutocomplete.locator("li", { hasText: "start.question" });
  await expect(option).toBeVisible();
  // Nothing of a downstream or unrelated node is offered: the LLM itself is not upstream of itself.
  await expect(editor.variableAutocomplete.locator("li", { hasText: "llm_1." })).toHaveCount(0);

  // Watch the list while narrowing: CodeMirror marks a stale list `cm-tooltip-autocomplete-disabled`.
  await page.evaluate(() => {
    const editor = document.querySelector('[data-testid="field-userPrompt-editor"] .cm-editor');
    const marks = window as unknown as { trellisEditor?: Element | null; trellisDisabledSeen?: number };
    marks.trellisEditor = editor;
    marks.trellisDisabledSeen = 0;
    const check = () => {
      if (document.querySelector(".cm-tooltip-autocomplete-disabled")) marks.trellisDisabledSeen! += 1;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });

  // Narrowing by typing, then picking with the mouse.
  await prompt.pressSequentially("quest");
  await expect(editor.variableAutocomplete.locator("li")).toHaveCount(1);
  const watched = await page.evaluate(() => {
    const marks = window as unknown as { trellisEditor?: Element | null; trellisDisabledSeen?: number };
    const editorNow = document.querySelector('[data-testid="field-userPrompt-editor"] .cm-editor');
    return {
      sameEditor: editorNow !== null && editorNow === marks.trellisEditor,
      disabledSeen: marks.trellisDisabledSeen,
    };
  });
  expect(watched).toEqual({ sameEditor: true, disabledSeen: 0 });
  if (test.info().repeatEachIndex === 0)
    await page.screenshot({ path: "test-results/prompt-editor/completion-narrowed-1440-light.png" });
  await option.click();
  await expect(prompt).toHaveText("Answer this: {{start.question}}");
  await expect(editor.variableAutocomplete).toBeHidden();

  // Keyboard: a second reference inserted with Enter, the caret right after it.
  await prompt.pressSequentially(" and {{");
  await expect(editor.variableAutocomplete).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(prompt).toHaveText(/^Answer this: \{\{start\.question\}\} and \{\{start\.[a-z_]+\}\}$/);
  await prompt.pressSequentially("!");
  await expect(prompt).toHaveText(/\}\}!$/);
});

test("? opens the keyboard shortcuts dialog; Escape closes it; typing ? in a field does not", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E shortcuts ${Date.now()}`, llmDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.pressOnCanvas("?");
  await expect(editor.shortcutsDialog).toBeVisible();
  await expect(editor.shortcutsDialog).toContainText("Keyboard shortcuts");
  await expect(editor.shortcutsDialog.locator("kbd", { hasText: "?" })).toBeVisible();
  await expect(editor.shortcutsDialog.locator("tr")).not.toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(editor.shortcutsDialog).toBeHidden();

  // The toolbar button opens the same dialog.
  await page.getByTestId("shortcuts-button").click();
  await expect(editor.shortcutsDialog).toBeVisible();
  await editor.shortcutsDialog.getByLabel("Close").click();
  await expect(editor.shortcutsDialog).toBeHidden();

  // In a text field ? is just a character.
  await editor.select("llm_1");
  await editor.field("userPrompt").click();
  await page.keyboard.type("Why?");
  await expect(editor.field("userPrompt")).toHaveText("Why?");
  await expect(editor.shortcutsDialog).toBeHidden();
});

test("the prompt editor is CodeMirror: labelled, references highlighted (unknown in red), env names completed", async ({
  page,
  request,
}) => {
  const name = `PROMPT_${Date.now()}`;
  expect((await request.post("/api/variables", { data: { name, value: "x" } })).status()).toBe(201);
  const workflowId = await createWorkflow(request, `E2E prompt cm ${Date.now()}`, llmDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("llm_1");
  const prompt = editor.field("userPrompt");
  await expect(prompt).toHaveClass(/cm-content/);
  await expect(prompt).toHaveAccessibleName(/User prompt/i);

  await prompt.fill("Known {{start.question}} and {{nowhere.text}}");
  const field = page.getByTestId("field-userPrompt-editor");
  await expect(field.locator(".cm-template-variable-known")).toHaveText("{{start.question}}");
  await expect(field.locator(".cm-template-variable-unknown")).toHaveText("{{nowhere.text}}");

  // {{env. completes the workspace's variables.
  await prompt.press("End");
  await prompt.pressSequentially(" {{env.PROMPT_");
  const envOption = editor.variableAutocomplete.locator("li", { hasText: `env.${name}` });
  await expect(envOption).toBeVisible();
  await envOption.click();
  await expect(prompt).toHaveText(new RegExp(`\\{\\{env\\.${name}\\}\\}$`));
  await page.screenshot({ path: "test-results/prompt-editor.png" });
  await editor.waitSaved();
  const saved = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    workflow: { draft: { nodes: { id: string; data: { userPrompt?: string } }[] } };
  };
  expect(saved.workflow.draft.nodes.find((node) => node.id === "llm_1")?.data.userPrompt).toBe(
    `Known {{start.question}} and {{nowhere.text}} {{env.${name}}}`,
  );
});
