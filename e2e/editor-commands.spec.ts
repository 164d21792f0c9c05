import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

async function viewportScale(page: Page): Promise<number> {
  // DOMMatrix exists in the page, not in the test runner.
  return page
    .locator(".react-flow__viewport")
    .evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).a);
}

test("the command palette finds a node, adds a node and runs actions (Ctrl+K)", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E palette ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.pressOnCanvas("Control+k");
  const input = page.getByTestId("command-palette-input");
  await expect(input).toBeFocused();
  await input.fill("Greeting");
  await page.keyboard.press("Enter");
  await expect(input).toHaveCount(0);
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", "template_1");

  await page.keyboard.press("Control+k");
  await input.fill("add http");
  await page.keyboard.press("Enter");
  await expect(editor.node("http_1")).toBeVisible();

  await page.keyboard.press("Control+k");
  await input.fill("show problems");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("bottom-panel-problems")).toBeVisible();
});

test("right-click menus act on a node, a connection and the canvas", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E context menu ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.node("template_1").getByTestId("node-title").click({ button: "right" });
  const nodeMenu = page.getByTestId("context-menu-node");
  await expect(nodeMenu.getByRole("menuitem").first()).toBeFocused();
  await nodeMenu.getByTestId("context-duplicate").click();
  await expect(page.locator(".react-flow__node")).toHaveCount(4);
  await expect(nodeMenu).toHaveCount(0);

  await editor.edges.first().locator(".react-flow__edge-interaction").click({ button: "right", force: true });
  await page.getByTestId("context-menu-edge").getByTestId("context-delete-edge").click();
  await expect(editor.edges).toHaveCount(1);

  await editor.canvas.locator(".react-flow__pane").click({ button: "right", position: { x: 120, y: 420 } });
  await page.getByTestId("context-menu-pane").getByTestId("context-add-node").click();
  await page.getByTestId("command-palette-input").fill("template");
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node")).toHaveCount(5);

  // Escape closes a menu without doing anything.
  await editor.canvas.locator(".react-flow__pane").click({ button: "right", position: { x: 60, y: 60 } });
  await expect(page.getByTestId("context-menu-pane")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("context-menu-pane")).toHaveCount(0);
  await editor.waitSaved();
  expect((await savedDraft(request, workflowId)).nodes).toHaveLength(5);
});

test("zoom keys: Ctrl+= and Ctrl+- zoom, Shift+1 fits the workflow", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E zoom keys ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const fitted = await viewportScale(page);
  await editor.pressOnCanvas("Control+Minus");
  await expect.poll(() => viewportScale(page)).toBeLessThan(fitted);
  await page.keyboard.press("Control+Equal");
  await page.keyboard.press("Control+Equal");
  await expect.poll(() => viewportScale(page)).toBeGreaterThan(fitted);
  await page.keyboard.press("Shift+Digit1");
  await expect.poll(() => viewportScale(page)).toBeCloseTo(fitted, 2);
});

test("the + menu searches at screen scale and places the node without overlap, shifting downstream nodes", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E plus menu ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.pressOnCanvas("Control+Minus");
  await editor.pressOnCanvas("Control+Minus");
  await editor.select("start");
  await editor.node("start").getByTestId("add-after-out").click();
  const menu = page.getByTestId("add-node-menu");
  await expect(menu).toBeVisible();
  // Screen scale: the menu's text is as large as anywhere else on the page, whatever the zoom.
  const fontSize = await page
    .getByTestId("command-palette-input")
    .evaluate((element) => getComputedStyle(element).fontSize);
  expect(Number.parseFloat(fontSize)).toBeGreaterThanOrEqual(12);
  await page.getByTestId("command-palette-input").fill("code");
  await page.keyboard.press("Enter");
  await expect(editor.node("code_1")).toBeVisible();
  await editor.waitSaved();
  const draft = await savedDraft(request, workflowId);
  const byId = Object.fromEntries(draft.nodes.map((node) => [node.id, node.position]));
  // The template used to sit where the new node goes: it moved right, and so did the end node.
  expect(byId.code_1.y).toBe(0);
  expect(byId.code_1.x).toBeGreaterThan(200);
  expect(byId.template_1.x).toBeGreaterThanOrEqual(byId.code_1.x + 220);
  expect(byId.end.x).toBeGreaterThan(byId.template_1.x);
});
