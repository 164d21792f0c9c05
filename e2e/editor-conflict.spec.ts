import { expect, test } from "@playwright/test";
import { createWorkflow, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

/** The template text saved on the server for template_1. */
async function serverTemplate(request: Parameters<typeof savedDraft>[0], workflowId: string): Promise<unknown> {
  const draft = await savedDraft(request, workflowId);
  return draft.nodes.find((node) => node.id === "template_1")?.data.template;
}

test("two tabs on one workflow: the later save stops with a conflict; reload or overwrite, never silent", async ({
  browser,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E conflict ${Date.now()}`, templateDocument());
  const context = await browser.newContext();
  const first = new EditorPage(await context.newPage());
  const second = new EditorPage(await context.newPage());
  await first.goto(workflowId);
  await second.goto(workflowId);

  // Tab one saves first.
  await first.select("template_1");
  await first.field("template").fill("From tab one");
  await first.waitSaved();
  expect(await serverTemplate(request, workflowId)).toBe("From tab one");

  // Tab two, still on the old revision, edits: its save is refused and it says so.
  await second.select("template_1");
  await second.field("template").fill("From tab two");
  await expect(second.conflictDialog).toBeVisible();
  await expect(second.conflictDialog).toContainText("changed elsewhere");
  await expect(second.conflictDialog.getByTestId("conflict-reload")).toBeVisible();
  await expect(second.conflictDialog.getByTestId("conflict-overwrite")).toBeVisible();
  await expect(second.page.getByTestId("save-state")).toHaveAttribute("data-state", "conflict");
  // Nothing was overwritten, even after autosave's debounce has long passed.
  await second.page.waitForTimeout(1500);
  expect(await serverTemplate(request, workflowId)).toBe("From tab one");

  // Reload: tab two now shows tab one's text and can save again on the new revision.
  await second.conflictDialog.getByTestId("conflict-reload").click();
  await expect(second.conflictDialog).toBeHidden();
  await second.select("template_1");
  await expect(second.field("template")).toHaveText("From tab one");
  await second.field("template").fill("Tab two after reload");
  await second.waitSaved();
  expect(await serverTemplate(request, workflowId)).toBe("Tab two after reload");

  // Now tab one is behind: its edit conflicts, and overwriting keeps tab one's version on purpose.
  await first.field("template").fill("Tab one wins");
  await expect(first.conflictDialog).toBeVisible();
  expect(await serverTemplate(request, workflowId)).toBe("Tab two after reload");
  await first.conflictDialog.getByTestId("conflict-overwrite").click();
  await expect(first.conflictDialog).toBeHidden();
  await first.waitSaved();
  expect(await serverTemplate(request, workflowId)).toBe("Tab one wins");
  await context.close();
});
