import { expect, test } from "@playwright/test";
import { createWorkflow, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("dragging a node moves it, saves the new position once the drag ends, and undo puts it back", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E drag ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const node = editor.node("template_1");
  const before = (await node.boundingBox())!;
  const savedBefore = (await savedDraft(request, workflowId)).nodes.find((entry) => entry.id === "template_1")!;

  // Mid-drag moves bypass the editor store (hooks/use-flow-drag.ts): the node must still follow
  // the pointer and the edges with it, and the store must get the final position at the end.
  const start = { x: before.x + 20, y: before.y + 12 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) await page.mouse.move(start.x + step * 12, start.y + step * 9);
  const during = (await node.boundingBox())!;
  expect(during.x).toBeGreaterThan(before.x + 60);
  await page.mouse.up();
  const after = (await node.boundingBox())!;
  // React Flow starts the drag on the first move past its threshold, so that step is not counted.
  expect(after.x - before.x).toBeGreaterThan(100);
  expect(after.y - before.y).toBeGreaterThan(75);

  await editor.waitSaved();
  const savedAfter = (await savedDraft(request, workflowId)).nodes.find((entry) => entry.id === "template_1")!;
  expect(savedAfter.position.x).toBeGreaterThan(savedBefore.position.x + 40);
  expect(savedAfter.position.y).toBeGreaterThan(savedBefore.position.y + 30);

  // The whole drag is one undo step.
  await page.getByTestId("undo").click();
  await expect.poll(async () => Math.round((await node.boundingBox())!.x)).toBe(Math.round(before.x));
  await page.getByTestId("redo").click();
  await expect.poll(async () => Math.round((await node.boundingBox())!.x)).toBe(Math.round(after.x));
});
