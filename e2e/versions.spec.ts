import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { createApiKey, runWithApiKey } from "./support/api-setup";

async function publish(page: Page, note: string, version: number): Promise<void> {
  await page.getByTestId("publish-button").click();
  await page.getByTestId("publish-note").fill(note);
  await page.getByTestId("publish-submit").click();
  await expect(page.getByTestId("publish-dialog")).toBeHidden();
  await expect(page.getByTestId("published-version")).toHaveAttribute("data-version", String(version));
}

test("versions: publish v1 and v2, diff them, pin v1 and the endpoint serves it, view v1 read-only, restore it into the draft and undo", async ({
  page,
  request,
}) => {
  const name = `E2E versions ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await publish(page, "First greeting", 1);

  await editor.select("template_1");
  await editor.field("template").fill("Hi {{start.question}}");
  await editor.waitSaved();
  await publish(page, "Friendlier greeting", 2);

  // The list: newest first, with notes and who published them; the latest is served.
  await page.getByTestId("versions-button").click();
  const dialog = page.getByTestId("versions-dialog");
  const rows = dialog.getByTestId("version-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-version", "2");
  await expect(rows.nth(0).getByTestId("version-note")).toHaveText("Friendlier greeting");
  await expect(rows.nth(1).getByTestId("version-note")).toHaveText("First greeting");
  await expect(rows.nth(0)).toContainText("Admin");
  await expect(rows.nth(0).getByTestId("version-served")).toHaveText("Serving (latest)");

  // Diff v1 → v2: the changed node by its title, the field by its label, before and after.
  await expect(dialog.getByTestId("diff-from")).toHaveValue("1");
  await expect(dialog.getByTestId("diff-to")).toHaveValue("2");
  await dialog.getByTestId("diff-compare").click();
  const lines = dialog.getByTestId("diff-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toHaveText(/Greeting \(template\)/);
  await expect(lines.nth(1)).toContainText('Template: "Hello {{start.question}}" → "Hi {{start.question}}"');
  await expect(lines.nth(1)).toHaveAttribute("data-kind", "changed");

  // Pin v1: the endpoint serves it; `version` in the body still picks another.
  await dialog.getByTestId("served-version-select").selectOption("1");
  await expect(rows.nth(1).getByTestId("version-served")).toHaveText("Serving (pinned)");
  await expect(rows.nth(0).getByTestId("version-served")).toHaveCount(0);
  const secret = await createApiKey(request, `versions ${Date.now()}`);
  const slug = name.toLowerCase().replaceAll(" ", "-");
  const call = (body: Record<string, unknown>) =>
    runWithApiKey(page.request, slug, secret, { inputs: { question: "Ada" }, ...body });
  const pinned = await call({});
  expect(pinned.status()).toBe(200);
  expect(await pinned.json()).toMatchObject({ version: 1, outputs: { answer: "Hello Ada" } });
  expect(await (await call({ version: 2 })).json()).toMatchObject({ version: 2, outputs: { answer: "Hi Ada" } });
  const unknown = await call({ version: 9 });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("workflow_version_not_found");

  // View v1 read-only: banner, no palette, no dragging, a disabled config panel.
  await rows.nth(1).getByTestId("version-view").click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}\\?version=1$`));
  await expect(page.getByTestId("version-banner")).toHaveText(/Viewing v1 — read-only/);
  await expect(page.getByTestId("palette")).toHaveCount(0);
  await expect(page.getByTestId("publish-button")).toHaveCount(0);
  await expect(editor.node("template_1")).not.toHaveClass(/draggable/);
  await editor.select("template_1");
  await expect(editor.field("template")).toHaveText("Hello {{start.question}}");
  await expect(editor.field("template")).toBeDisabled();

  // Restore into draft: the draft editor gets v1 as one step, saved; Undo brings v2's text back.
  await page.getByTestId("version-restore-into-draft").click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
  await expect(page.getByTestId("version-banner")).toHaveCount(0);
  await editor.select("template_1");
  await expect(editor.field("template")).toHaveText("Hello {{start.question}}");
  await editor.waitSaved();
  await page.getByTestId("undo").click();
  await editor.select("template_1");
  await expect(editor.field("template")).toHaveText("Hi {{start.question}}");
  await editor.waitSaved();
  await page.reload();
  await editor.select("template_1");
  await expect(editor.field("template")).toHaveText("Hi {{start.question}}");
});
