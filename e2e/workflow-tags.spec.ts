import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { WorkflowsPage } from "./pages/workflows-page";

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
  await new WorkflowsPage(page).rowAction(row, "edit-workflow-tags");
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

/** Screenshots of the Manage tags dialog land here (viewed during review, not compared). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 768 });
      await page.screenshot({ path: `test-results/workflow-tags/${name}-${width}-${theme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("manage tags: rename (a taken name is refused on the field) and delete after a confirm; chips and the filter follow", async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const first = `ops-${stamp}`;
  const second = `sales-${stamp}`;
  const renamed = `operations-${stamp}`;
  const workflowId = await createWorkflow(request, `E2E managed tags ${stamp}`, templateDocument());
  const otherId = await createWorkflow(request, `E2E managed other ${stamp}`, templateDocument());
  const tagIds: string[] = [];
  for (const name of [first, second]) {
    const response = await request.post("/api/tags", { data: { name, color: "blue" } });
    expect(response.status()).toBe(201);
    tagIds.push(((await response.json()) as { tag: { id: string } }).tag.id);
  }
  expect((await request.put(`/api/workflows/${workflowId}/tags`, { data: { tagIds } })).status()).toBe(200);
  expect((await request.put(`/api/workflows/${otherId}/tags`, { data: { tagIds: [tagIds[1]] } })).status()).toBe(200);

  await page.goto(`/workflows?tag=${first}`);
  const row = page.locator(`[data-testid="workflow-row"][data-id="${workflowId}"]`);
  await expect(page.getByTestId("workflow-row")).toHaveCount(1);
  await page.getByTestId("manage-tags-button").click();
  const dialog = page.getByTestId("manage-tags");
  await expect(dialog).toBeVisible();
  const firstRow = dialog.locator(`[data-testid="manage-tag-row"][data-tag="${first}"]`);

  // Rename by keyboard: the field takes focus; another tag's name (any case) is a 409 on the field.
  await firstRow.getByTestId("manage-tag-rename").click();
  const nameField = dialog.getByTestId("manage-tag-name");
  await expect(nameField).toBeFocused();
  await nameField.fill(second.toUpperCase());
  await nameField.press("Enter");
  await expect(dialog.getByTestId("manage-tag-error")).toContainText("already exists");
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await shoot(page, "manage-tags-rename-taken");
  await nameField.fill(renamed);
  await nameField.press("Enter");
  await expect(dialog.locator(`[data-testid="manage-tag-row"][data-tag="${renamed}"]`)).toBeVisible();
  await expect(firstRow).toHaveCount(0);

  // The list behind follows: the chip is renamed, and the filter now names the new tag.
  await expect(row.locator(`[data-testid="tag-chip"][data-tag="${renamed}"]`)).toBeVisible();
  await expect(page.getByTestId("workflow-tag-filter")).toHaveValue(renamed);
  await expect(page).toHaveURL(new RegExp(`[?&]tag=${renamed}`));
  await expect(page.getByTestId("workflow-row")).toHaveCount(1);

  // Delete asks first; "Keep" cancels, the confirm deletes it from every workflow.
  const secondRow = dialog.locator(`[data-testid="manage-tag-row"][data-tag="${second}"]`);
  await secondRow.getByTestId("manage-tag-delete").click();
  await expect(secondRow.getByTestId("manage-tag-confirm")).toContainText("removed from 2 workflows");
  await expect(secondRow.getByTestId("manage-tag-confirm-delete")).toBeFocused();
  await shoot(page, "manage-tags-confirm-delete");
  await secondRow.getByRole("button", { name: "Keep" }).click();
  await expect(secondRow.getByTestId("manage-tag-confirm")).toHaveCount(0);
  await secondRow.getByTestId("manage-tag-delete").click();
  await page.keyboard.press("Enter");
  await expect(secondRow).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row.locator(`[data-testid="tag-chip"][data-tag="${second}"]`)).toHaveCount(0);
  await expect(row.locator(`[data-testid="tag-chip"][data-tag="${renamed}"]`)).toBeVisible();

  // Filtering by the renamed tag from scratch keeps the one workflow that carries it.
  await page.goto("/workflows");
  await page.getByTestId("workflow-tag-filter").selectOption(renamed);
  await expect(page.getByTestId("workflow-row")).toHaveCount(1);
  await expect(page.getByTestId("workflow-row").first()).toHaveAttribute("data-id", workflowId);
  const tags = (await (await request.get("/api/tags")).json()) as { tags: { name: string }[] };
  expect(tags.tags.map((tag) => tag.name)).not.toContain(second);
});
