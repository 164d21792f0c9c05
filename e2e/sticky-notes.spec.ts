import { expect, test } from "@playwright/test";
import { createWorkflow, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a sticky note is added from the menu, written in Markdown (no HTML), coloured, resized, saved and ignored by runs", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E notes ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.canvas.locator(".react-flow__pane").click({ button: "right", position: { x: 160, y: 400 } });
  await page.getByTestId("context-menu-pane").getByTestId("context-add-note").click();
  const note = page.getByTestId("note");
  await expect(note).toHaveCount(1);
  // A note is edited on the canvas: no config panel opens for it.
  await expect(page.getByTestId("config-panel")).toHaveCount(0);

  await note.getByTestId("note-edit").click();
  await note.getByTestId("note-text").fill('## Why\nAsk **politely**.\n- one\n<img src=x onerror="window.__pwned=1">');
  await page.keyboard.press("Escape");
  const body = note.getByTestId("note-body");
  await expect(body.locator("h4")).toHaveText("Why");
  await expect(body.locator("strong")).toHaveText("politely");
  await expect(body.locator("li")).toHaveText("one");
  await expect(body.locator("img")).toHaveCount(0);
  await expect(body).toContainText("<img src=x");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await note.click({ position: { x: 30, y: 60 } });
  await note.getByTestId("note-color-green").click();
  await expect(note).toHaveAttribute("data-color", "green");
  const before = (await note.boundingBox())!;
  const corner = page.locator(".react-flow__resize-control.bottom.right").first();
  const handle = (await corner.boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 80, handle.y + 50, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await note.boundingBox())!.width).toBeGreaterThan(before.width + 30);

  await editor.waitSaved();
  const draft = (await savedDraft(request, workflowId)) as unknown as {
    schemaVersion: number;
    nodes: { id: string }[];
    notes: { text: string; color: string; width: number }[];
  };
  expect(draft.schemaVersion).toBe(4);
  expect(draft.nodes.map((node) => node.id)).toEqual(["start", "template_1", "end"]);
  expect(draft.notes).toHaveLength(1);
  expect(draft.notes[0]).toMatchObject({ color: "green", text: expect.stringContaining("**politely**") });
  expect(draft.notes[0].width).toBeGreaterThan(260);

  await page.reload();
  await expect(page.getByTestId("note").locator("strong")).toHaveText("politely");
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "0");
  await editor.run({ question: "hi" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
});
