import { expect, type Locator, type Page, test } from "@playwright/test";
import { copyOfExample } from "./fixtures/examples";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

/** A node title's font size as drawn on screen: its CSS size times the canvas zoom. */
async function onScreenFontSize(title: Locator): Promise<number> {
  return title.evaluate((element) => {
    const html = element as HTMLElement;
    const scale = html.getBoundingClientRect().width / html.offsetWidth;
    return Number.parseFloat(getComputedStyle(html).fontSize) * scale;
  });
}

/** Waits until the viewport transform stops changing (a fit animates over 200 ms). */
async function waitForViewportAtRest(page: Page): Promise<string> {
  const viewport = page.locator(".react-flow__viewport");
  let previous = "";
  for (let attempt = 0; attempt < 30; attempt++) {
    const current = (await viewport.getAttribute("style")) ?? "";
    if (current === previous && current !== "") return current;
    previous = current;
    await page.waitForTimeout(150);
  }
  return previous;
}

/** Every rendered node's box lies inside the canvas's box. */
async function expectAllNodesInside(page: Page): Promise<void> {
  const canvas = (await page.getByTestId("canvas").boundingBox())!;
  const boxes = await page.locator(".react-flow__node").evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { x: box.x, y: box.y, right: box.right, bottom: box.bottom };
    }),
  );
  for (const box of boxes) {
    expect(box.x).toBeGreaterThanOrEqual(canvas.x - 1);
    expect(box.y).toBeGreaterThanOrEqual(canvas.y - 1);
    expect(box.right).toBeLessThanOrEqual(canvas.x + canvas.width + 1);
    expect(box.bottom).toBeLessThanOrEqual(canvas.y + canvas.height + 1);
  }
}

test.describe("at 1024 × 768", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("the toolbar keeps Run, Publish and Schedule reachable, the rest in a menu, and the page never scrolls sideways", async ({
    page,
    request,
  }) => {
    const editor = new EditorPage(page);
    await editor.goto(await copyOfExample(request, `E2E layout ${Date.now()}`));
    for (const testId of ["run-button", "publish-button", "schedule-button", "problems-toggle", "run-panel-toggle"]) {
      const box = (await page.getByTestId(testId).boundingBox())!;
      expect(box, testId).not.toBeNull();
      expect(box.x, testId).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, testId).toBeLessThanOrEqual(1024);
    }
    const widths = await page.evaluate(() => ({
      scroll: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);

    // What left the bar is in the overflow menu.
    await page.getByTestId("toolbar-overflow").click();
    await expect(page.getByTestId("overflow-history")).toBeVisible();
    await expect(page.getByTestId("overflow-shortcuts")).toBeVisible();
    await page.getByTestId("overflow-shortcuts").click();
    await expect(editor.shortcutsDialog).toBeVisible();
    await page.keyboard.press("Escape");

    await page.getByTestId("schedule-button").click();
    await expect(page.getByTestId("schedule-dialog")).toBeVisible();
  });
});

test("the theme toggle switches to dark, and the choice survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/workflows");
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  await page.getByTestId("theme-toggle").click();
  await page.getByTestId("theme-dark").click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
  // And back: the light theme is stored the same way.
  await page.getByTestId("theme-toggle").click();
  await page.getByTestId("theme-light").click();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});

test("with no stored choice the theme follows the system's colour scheme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/workflows");
  await expect(page.locator("html")).toHaveClass(/dark/);
});

test("a click on a palette item adds the node at the viewport centre, Enter adds one beside the selection, never on top of another node", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E palette click ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const nodes = page.locator(".react-flow__node");
  await expect(nodes).toHaveCount(3);

  await page.getByTestId("palette-item-llm").click();
  await expect(nodes).toHaveCount(4);
  const added = page.locator(".react-flow__node.selected");
  await expect(added).toHaveAttribute("data-id", /^llm/);
  const llmId = (await added.getAttribute("data-id"))!;
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", llmId);

  // Keyboard: Enter on a focused palette item adds it right of the selected node.
  await page.getByTestId("palette-item-code").focus();
  await page.keyboard.press("Enter");
  await expect(nodes).toHaveCount(5);
  const codeNode = page.locator(".react-flow__node.selected");
  await expect(codeNode).toHaveAttribute("data-id", /^code/);
  const llmBox = (await editor.node(llmId).boundingBox())!;
  const codeBox = (await codeNode.boundingBox())!;
  expect(codeBox.x).toBeGreaterThan(llmBox.x + llmBox.width - 1);

  // No two nodes overlap.
  const boxes = await nodes.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { id: element.getAttribute("data-id"), x: box.x, y: box.y, right: box.right, bottom: box.bottom };
    }),
  );
  for (const [index, left] of boxes.entries()) {
    for (const right of boxes.slice(index + 1)) {
      const overlap = left.x < right.right && right.x < left.right && left.y < right.bottom && right.y < left.bottom;
      expect(overlap, `${left.id} overlaps ${right.id}`).toBe(false);
    }
  }
});

test("at 1440 × 900 the six-node example fits readable; collapsing the palette and auto-layout re-fit the view", async ({
  page,
  request,
}) => {
  const editor = new EditorPage(page);
  await editor.goto(await copyOfExample(request, `E2E layout ${Date.now()}`));
  await expect(page.locator(".react-flow__node")).toHaveCount(6);
  await waitForViewportAtRest(page);
  await expectAllNodesInside(page);
  const title = editor.node("planner").getByTestId("node-title");
  const withPalette = await onScreenFontSize(title);
  expect(withPalette).toBeGreaterThanOrEqual(11);

  await page.getByTestId("palette-toggle").click();
  await expect(page.getByTestId("palette")).toHaveAttribute("data-collapsed", "true");
  await waitForViewportAtRest(page);
  const collapsed = await onScreenFontSize(title);
  expect(collapsed).toBeGreaterThan(withPalette);
  await expectAllNodesInside(page);

  // The config panel opens on a selection and closes with Escape; the clicked node does not jump.
  const plannerBefore = (await editor.node("planner").boundingBox())!;
  await editor.select("planner");
  await expect(page.getByTestId("inspector-column")).toBeVisible();
  await page.waitForTimeout(300);
  const plannerAfter = (await editor.node("planner").boundingBox())!;
  expect(Math.round(plannerAfter.x)).toBe(Math.round(plannerBefore.x));
  expect(Math.round(plannerAfter.y)).toBe(Math.round(plannerBefore.y));
  await page.getByTestId("node-title-input").press("Escape");
  await expect(page.getByTestId("inspector-column")).toHaveCount(0);
  // A click on the pane closes it too.
  await editor.select("planner");
  await editor.canvas.locator(".react-flow__pane").click({ position: { x: 10, y: 10 } });
  await expect(page.getByTestId("inspector-column")).toHaveCount(0);

  // After auto-layout the whole graph is in view again.
  await page.getByTestId("auto-layout").click();
  await page.waitForTimeout(400);
  await waitForViewportAtRest(page);
  await expectAllNodesInside(page);
  expect(await onScreenFontSize(title)).toBeGreaterThanOrEqual(11);

  // The collapsed palette is remembered.
  await page.reload();
  await expect(page.getByTestId("palette")).toHaveAttribute("data-collapsed", "true");
});

test("with the run panel open the minimap is gone, so a click on the End node reaches it", async ({
  page,
  request,
}) => {
  const editor = new EditorPage(page);
  await editor.goto(await copyOfExample(request, `E2E layout ${Date.now()}`));
  await expect(page.locator(".react-flow__minimap")).toHaveCount(1);
  await page.getByTestId("run-panel-toggle").click();
  await expect(page.getByTestId("bottom-panel-run")).toBeVisible();
  await expect(page.locator(".react-flow__minimap")).toHaveCount(0);
  await waitForViewportAtRest(page);
  // A plain click (no force): Playwright fails it if another element would receive it.
  await editor.node("end").getByTestId("node-title").click();
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", "end");
});

test("the bottom panel resizes from the keyboard", async ({ page, request }) => {
  const editor = new EditorPage(page);
  await editor.goto(await copyOfExample(request, `E2E layout ${Date.now()}`));
  await page.getByTestId("run-panel-toggle").click();
  const panel = page.getByTestId("bottom-panel-run");
  const before = (await panel.boundingBox())!.height;
  const separator = page.getByRole("separator", { name: "Resize the bottom panel" });
  await separator.focus();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThan(before + 40);
  await page.keyboard.press("Home");
  await expect.poll(async () => (await panel.boundingBox())!.height).toBeLessThan(before);
});
