import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("zoomed out, cards drop their details and handles show on the hovered node, so edges can still be drawn", async ({
  page,
  request,
}) => {
  const document = templateDocument();
  const workflowId = await createWorkflow(request, `E2E zoomed out ${Date.now()}`, {
    ...document,
    edges: [document.edges[0]],
  });
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const canvas = editor.canvas;
  for (let click = 0; click < 12 && !(await canvas.getAttribute("class"))?.includes("canvas-zoomed-out"); click++) {
    await page.locator(".react-flow__controls-zoomout").click();
  }
  await expect(canvas).toHaveClass(/canvas-zoomed-out/);

  const source = editor.node("template_1").locator(".react-flow__handle.source");
  await expect(source).toBeHidden();
  await expect(editor.node("template_1").getByTestId("node-summary")).toBeHidden();
  await editor.node("template_1").hover();
  await expect(source).toBeVisible();

  await editor.connect("template_1", "end");
  await expect(editor.edges).toHaveCount(2);
});
