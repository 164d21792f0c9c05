import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("tags: created inline in the tag editor, shown as chips, filtered in the URL, edited from the editor header", async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const name = `E2E tagged ${stamp}`;
  const tagName = `billing-${stamp}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  await createWorkflow(request, `E2E untagged ${stamp}`, templateDocument());

  await page.goto("/workflows");
  const row = page.locator(`[data-testid="workflow-row"][data-id="${workflowId}"]`);
  await row.getByTestId("edit-workflow-tags").click();
  const editor = page.getByTestId("tag-editor");
  await expect(editor).toBeVisible();

  // An empty name is refused at the field, in words; a new tag is ticked at once.
  await editor.getByTestId("create-tag").click();
  await expect(editor.getByTestId("new-tag-error")).toContainText("Enter a tag name");
  await editor.getByTestId("new-tag-name").fill(tagName);
  await editor.getByTestId("new-tag-color").selectOption("green");
  await editor.getByTestId("new-tag-name").press("Enter");
  const option = editor.locator(`[data-testid="tag-option"][data-tag="${tagName}"]`);
  await expect(option.getByRole("checkbox")).toBeChecked();

  // The same name in another case is taken: the server's 409 is shown on the name field.
  await editor.getByTestId("new-tag-name").fill(tagName.toUpperCase());
  await editor.getByTestId("create-tag").click();
  await expect(editor.getByTestId("new-tag-error")).toContainText("already exists");

  await editor.getByTestId("tag-editor-save").click();
  await expect(editor).toBeHidden();
  await expect(row.locator(`[data-testid="tag-chip"][data-tag="${tagName}"]`)).toBeVisible();

  // The toolbar's tag filter keeps only the tagged workflow, and lives in the address.
  await page.getByTestId("workflow-tag-filter").selectOption(tagName);
  await expect(page).toHaveURL(new RegExp(`[?&]tag=${tagName}`));
  const rows = page.getByTestId("workflow-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", workflowId);
  await page.reload();
  await expect(page.getByTestId("workflow-tag-filter")).toHaveValue(tagName);
  await expect(page.getByTestId("workflow-row")).toHaveCount(1);

  // From the editor's header: the tag is ticked; untick it and save.
  const editorPage = new EditorPage(page);
  await editorPage.goto(workflowId);
  await page.getByTestId("editor-tags-button").click();
  const headerEditor = page.getByTestId("tag-editor");
  const headerOption = headerEditor.locator(`[data-testid="tag-option"][data-tag="${tagName}"]`);
  await expect(headerOption.getByRole("checkbox")).toBeChecked();
  await headerOption.getByRole("checkbox").click();
  await headerEditor.getByTestId("tag-editor-save").click();
  await expect(headerEditor).toBeHidden();
  const tags = (await (await request.get(`/api/workflows/${workflowId}/tags`)).json()) as { tags: unknown[] };
  expect(tags.tags).toEqual([]);
});
