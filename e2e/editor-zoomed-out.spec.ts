import { expect, test } from "@playwright/test";
import { zoomedOutSize } from "../components/canvas/nodes/card-size";
import type { CanvasNodeData } from "../components/canvas/store/types";
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

test("a workflow fitted below the detail zoom opens with every card at the size the canvas gave it up front", async ({
  page,
  request,
}) => {
  // One row of cards of every shape a zoomed-out card has: no ports, one, several (a condition's
  // cases, a fail branch), and a sticky note. Wide enough that the fitted view is zoomed out, and
  // valid, so that no card grows an issue box once the compile has run.
  const GAP = 340;
  const template = (index: number) => ({
    id: `template_${index}`,
    type: "template",
    position: { x: GAP * index, y: 0 },
    data: { title: `Template ${index}`, errorStrategy: "fail-run", template: "Hi" },
  });
  const isEmpty = (operator: string) => [{ left: "{{start.question}}", operator }];
  const nodes = [
    templateDocument().nodes[0],
    ...[1, 2, 3, 4, 5, 6, 7].map(template),
    {
      id: "condition_1",
      type: "condition",
      position: { x: GAP * 8, y: 0 },
      data: {
        title: "Route",
        errorStrategy: "fail-run",
        cases: [
          { id: "case-1", label: "If", logic: "and", conditions: isEmpty("is-empty") },
          { id: "case-2", label: "Else if", logic: "and", conditions: isEmpty("is-not-empty") },
        ],
      },
    },
    {
      id: "llm_1",
      type: "llm",
      position: { x: GAP * 9, y: 0 },
      data: {
        title: "Answer",
        errorStrategy: "fail-branch",
        model: { provider: "default", model: "gpt-4o-mini" },
        userPrompt: "Hi {{start.question}}",
      },
    },
    {
      id: "end",
      type: "end",
      position: { x: GAP * 10, y: 0 },
      data: { title: "End", errorStrategy: "fail-run", outputs: [] },
    },
  ];
  const edge = (source: string, target: string, sourceHandle?: string) => ({
    id: `edge_${source}_${sourceHandle ?? "out"}`,
    source,
    target,
    ...(sourceHandle ? { sourceHandle } : {}),
  });
  const edges = [
    ...nodes.slice(0, 8).map((node, index) => edge(node.id, nodes[index + 1].id)),
    edge("condition_1", "llm_1", "case-1"),
    edge("condition_1", "end", "case-2"),
    edge("condition_1", "end", "else"),
    edge("llm_1", "end"),
    edge("llm_1", "end", "fail"),
  ];
  const note = { id: "note_1", position: { x: 0, y: 200 }, width: 240, height: 160, text: "Notes", color: "yellow" };
  const workflowId = await createWorkflow(request, `E2E zoomed-out sizes ${Date.now()}`, {
    schemaVersion: 2,
    nodes,
    edges,
    notes: [note],
  });
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await expect(editor.canvas).toHaveClass(/canvas-zoomed-out/);
  await expect(editor.edges).toHaveCount(edges.length);

  const measured = await page
    .locator(".react-flow__node")
    .evaluateAll((elements) =>
      Object.fromEntries(
        elements.map((element) => [
          element.getAttribute("data-id"),
          { width: (element as HTMLElement).offsetWidth, height: (element as HTMLElement).offsetHeight },
        ]),
      ),
    );
  const expected = Object.fromEntries([
    ...nodes.map((node) => [node.id, zoomedOutSize({ ...node, data: node.data as CanvasNodeData })]),
    [note.id, { width: note.width, height: note.height }],
  ]);
  // A card whose size differs from ZOOMED_OUT_CARD (card-size.ts) costs every zoomed-out load a
  // second layout pass: update the constants with the card's CSS.
  expect(measured).toEqual(expected);
  expect(expected.condition_1.height).toBeGreaterThan(expected.llm_1.height);
  expect(expected.llm_1.height).toBeGreaterThan(expected.template_1.height);
});
