import { expect, type Locator, type Page, test } from "@playwright/test";
import { containerDocument, createWorkflow, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

type Point = { x: number; y: number };

/** Where a drawn edge path starts and ends, in page coordinates. */
async function pathEnds(path: Locator): Promise<{ start: Point; end: Point }> {
  return path.evaluate((element) => {
    const svgPath = element as SVGPathElement;
    const matrix = svgPath.getScreenCTM()!;
    const at = (length: number) => {
      const point = svgPath.getPointAtLength(length).matrixTransform(matrix);
      return { x: point.x, y: point.y };
    };
    return { start: at(0), end: at(svgPath.getTotalLength()) };
  });
}

/** Where an edge meets a node's input (left side) or output (right side) handle. */
async function handlePoint(page: Page, nodeId: string, side: "in" | "out"): Promise<Point> {
  const kind = side === "in" ? "target" : "source";
  const box = (await page
    .locator(`.react-flow__node[data-id="${nodeId}"] .react-flow__handle.${kind}`)
    .first()
    .boundingBox())!;
  return { x: side === "in" ? box.x : box.x + box.width, y: box.y + box.height / 2 };
}

function expectNear(actual: Point, expected: Point) {
  expect(Math.abs(actual.x - expected.x), `x ${actual.x} vs ${expected.x}`).toBeLessThan(1.5);
  expect(Math.abs(actual.y - expected.y), `y ${actual.y} vs ${expected.y}`).toBeLessThan(1.5);
}

/** The path React Flow draws for an edge, and the copy the drag preview draws while it is hidden. */
function edgePath(page: Page, edgeId: string): Locator {
  return page.locator(`.react-flow__edge[data-id="${edgeId}"] .react-flow__edge-path`);
}
function previewPath(page: Page, edgeId: string): Locator {
  return page.locator(`.canvas-drag-overlay [data-copy-of="${edgeId}"] .react-flow__edge-path`);
}

/** Presses on `point` and moves the pointer by `delta` in 10 steps, without releasing. */
async function dragBy(page: Page, point: Point, delta: Point): Promise<void> {
  await page.mouse.move(point.x, point.y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(point.x + (delta.x * step) / 10, point.y + (delta.y * step) / 10);
  }
}

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

test("mid-drag the edges of the dragged node follow it, and React Flow draws them again after the drop", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E drag edges ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const before = (await editor.node("template_1").boundingBox())!;

  await dragBy(page, { x: before.x + 20, y: before.y + 12 }, { x: 90, y: 140 });
  // Moves are drawn by hooks/drag-preview.ts: copies of both edges in the overlay, React Flow's
  // own edges hidden, and the copies meet the node's handles where the node is now.
  await expect(previewPath(page, "edge_1")).toHaveCount(1);
  await expect(edgePath(page, "edge_1")).toBeHidden();
  expectNear((await pathEnds(previewPath(page, "edge_1"))).end, await handlePoint(page, "template_1", "in"));
  expectNear((await pathEnds(previewPath(page, "edge_2"))).start, await handlePoint(page, "template_1", "out"));
  expectNear((await pathEnds(previewPath(page, "edge_1"))).start, await handlePoint(page, "start", "out"));
  await page.mouse.up();

  await expect(page.locator(".canvas-drag-overlay")).toHaveCount(0);
  await expect(edgePath(page, "edge_1")).toBeVisible();
  expectNear((await pathEnds(edgePath(page, "edge_1"))).end, await handlePoint(page, "template_1", "in"));
  expectNear((await pathEnds(edgePath(page, "edge_2"))).start, await handlePoint(page, "template_1", "out"));
  const after = (await editor.node("template_1").boundingBox())!;
  expect(after.y - before.y).toBeGreaterThan(100);
});

test("dragging an iteration container carries its body nodes and their edges along", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E drag container ${Date.now()}`, containerDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const boxes = async () => ({
    loop: (await editor.node("loop").boundingBox())!,
    a: (await editor.node("template_a").boundingBox())!,
    b: (await editor.node("template_b").boundingBox())!,
  });
  const before = await boxes();
  const savedBefore = await savedDraft(request, workflowId);

  // Grab the container by its header (left of the title), away from its body nodes.
  await dragBy(page, { x: before.loop.x + 12, y: before.loop.y + 14 }, { x: 60, y: 120 });
  const during = await boxes();
  const moved = { x: during.loop.x - before.loop.x, y: during.loop.y - before.loop.y };
  expect(moved.y).toBeGreaterThan(60);
  for (const child of ["a", "b"] as const) {
    expect(Math.abs(during[child].x - before[child].x - moved.x)).toBeLessThan(1);
    expect(Math.abs(during[child].y - before[child].y - moved.y)).toBeLessThan(1);
  }
  const body = await pathEnds(previewPath(page, "edge_body"));
  expectNear(body.start, await handlePoint(page, "template_a", "out"));
  expectNear(body.end, await handlePoint(page, "template_b", "in"));
  expectNear((await pathEnds(previewPath(page, "edge_in"))).end, await handlePoint(page, "loop", "in"));
  await page.mouse.up();

  await editor.waitSaved();
  const saved = await savedDraft(request, workflowId);
  const position = (draft: typeof saved, id: string) => draft.nodes.find((node) => node.id === id)!.position;
  expect(position(saved, "loop").y).toBeGreaterThan(position(savedBefore, "loop").y + 40);
  // Body positions are relative to the container: unchanged.
  expect(position(saved, "template_a")).toEqual(position(savedBefore, "template_a"));
  expect(position(saved, "template_b")).toEqual(position(savedBefore, "template_b"));
  expectNear((await pathEnds(edgePath(page, "edge_body"))).end, await handlePoint(page, "template_b", "in"));
});

test("a box selection drags as one: both nodes, their edges and the selection rectangle move", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E drag selection ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const first = (await editor.node("template_1").boundingBox())!;
  const last = (await editor.node("end").boundingBox())!;

  // Shift + drag on the pane draws a selection box around template_1 and end.
  await page.keyboard.down("Shift");
  await page.mouse.move(first.x - 15, first.y - 30);
  await page.mouse.down();
  await page.mouse.move(last.x + last.width + 15, last.y + last.height + 30, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  const rect = page.locator(".react-flow__nodesselection-rect");
  await expect(rect).toBeVisible();
  const rectBefore = (await rect.boundingBox())!;

  await dragBy(page, { x: rectBefore.x + 10, y: rectBefore.y + 10 }, { x: 40, y: 110 });
  const rectDuring = (await rect.boundingBox())!;
  const moved = { x: rectDuring.x - rectBefore.x, y: rectDuring.y - rectBefore.y };
  expect(moved.y).toBeGreaterThan(60);
  for (const [id, before] of [
    ["template_1", first],
    ["end", last],
  ] as const) {
    const during = (await editor.node(id).boundingBox())!;
    expect(Math.abs(during.x - before.x - moved.x)).toBeLessThan(1);
    expect(Math.abs(during.y - before.y - moved.y)).toBeLessThan(1);
  }
  expectNear((await pathEnds(previewPath(page, "edge_1"))).end, await handlePoint(page, "template_1", "in"));
  expectNear((await pathEnds(previewPath(page, "edge_2"))).end, await handlePoint(page, "end", "in"));
  await page.mouse.up();
  await expect(page.locator(".canvas-drag-overlay")).toHaveCount(0);
  expectNear((await pathEnds(edgePath(page, "edge_2"))).end, await handlePoint(page, "end", "in"));
});
