import { expect, test } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";
import { WorkflowsPage } from "./pages/workflows-page";

const TASK = "Compare the weather in Paris and Berlin and convert 100 EUR to USD.";

test("build a plan-and-execute workflow on the canvas, run it, inspect it, undo/redo, reload", async ({ page }) => {
  const workflows = new WorkflowsPage(page);
  const editor = new EditorPage(page);

  await workflows.goto();
  const id = await workflows.create(`E2E plan ${Date.now()}`);

  // Palette → canvas. The tool is dropped onto the iteration, so it becomes part of its body.
  await editor.dragFromPalette("start", { x: 150, y: 300 });
  await expect(editor.node("start_1")).toBeVisible();
  await editor.dragFromPalette("end", { x: 780, y: 300 });
  await expect(editor.node("end_1")).toBeVisible();
  await editor.dragFromPalette("planner", { x: 220, y: 130 });
  await expect(editor.node("planner_1")).toBeVisible();
  await editor.dragFromPalette("iteration", { x: 330, y: 560 });
  await expect(editor.node("iteration_1")).toBeVisible();
  await editor.dragFromPalette("tool", { x: 200, y: 120 }, editor.node("iteration_1"));
  await expect(editor.node("tool_1")).toBeVisible();
  await editor.dragFromPalette("synthesizer", { x: 640, y: 130 });
  await expect(editor.node("synthesizer_1")).toBeVisible();
  const iterationBox = (await editor.node("iteration_1").boundingBox())!;
  const toolBox = (await editor.node("tool_1").boundingBox())!;
  expect(toolBox.x).toBeGreaterThan(iterationBox.x);
  expect(toolBox.y).toBeGreaterThan(iterationBox.y);
  expect(toolBox.x + toolBox.width).toBeLessThan(iterationBox.x + iterationBox.width + 1);

  // Wire with the config panel closed: it narrows the canvas, and a connection dragged near the
  // canvas's edge makes React Flow pan under the pointer (autoPanOnConnect), so the drop can miss.
  await page.getByRole("button", { name: "Close configuration" }).click();
  await expect(page.getByTestId("config-panel")).toHaveCount(0);
  await editor.connect("start_1", "planner_1");
  await editor.connect("planner_1", "iteration_1");
  await editor.connect("iteration_1", "synthesizer_1");
  await editor.connect("synthesizer_1", "end_1");
  await expect(editor.edges).toHaveCount(4);
  // A cycle is refused while dragging: no edge appears.
  await editor.connect("synthesizer_1", "planner_1", "out", { refused: true });
  await expect(editor.edges).toHaveCount(4);

  await editor.select("start_1");
  await page.getByTestId("field-inputs-add").click();
  await editor.field("inputs.0.name").fill("question");

  // Compile issue on the planner (no goal), shown on the node and in the problems list; fix it.
  await expect(editor.node("planner_1").getByTestId("node-issues")).toContainText("goal");
  await page.getByTestId("problems-toggle").click();
  await page
    .locator('[data-testid="problem-item"][data-node-id="planner_1"][data-code="missing_required_input"]')
    .click();
  await expect(page.getByTestId("config-panel")).toHaveAttribute("data-node-id", "planner_1");
  await expect(editor.field("goal")).toBeFocused();
  await editor.field("goal").fill("{{start_1.question}}");
  await expect(editor.node("planner_1").getByTestId("node-issues")).toHaveCount(0);
  const toolPicker = page.getByTestId("tool-picker");
  await toolPicker.getByRole("checkbox", { name: "get_current_weather" }).check();
  await toolPicker.getByRole("checkbox", { name: "convert_currency" }).check();
  await page.getByTestId("problems-toggle").click();
  await editor.fitView();

  await editor.select("iteration_1");
  await editor.field("input").selectOption("planner_1.steps");
  await editor.field("parallel").check();
  await editor.field("outputSelector").selectOption("tool_1.result");

  await editor.select("tool_1");
  await page.getByTestId("tool-select").fill("{{item.tool}}");
  await editor.field("argumentsTemplate").fill("{{item.input}}");

  await editor.select("synthesizer_1");
  await editor.field("prompt").fill("Task: {{start_1.question}}\nResults: {{iteration_1.output}}");

  await editor.select("end_1");
  await page.getByTestId("field-outputs-add").click();
  await editor.field("outputs.0.name").fill("answer");
  await editor.field("outputs.0.value").fill("{{synthesizer_1.text}}");

  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "0");

  // Run: statuses light up live over SSE.
  await editor.run({ question: TASK });
  await expect(editor.runStatus("planner_1")).toHaveAttribute("data-status", /running|succeeded/, { timeout: 30_000 });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  // The run panel takes room from the canvas: bring every node back into view (off-screen ones are not rendered).
  await editor.fitView();
  for (const nodeId of ["start_1", "planner_1", "iteration_1", "tool_1", "synthesizer_1", "end_1"]) {
    await expect(editor.runStatus(nodeId)).toHaveAttribute("data-status", "succeeded");
  }
  await expect(page.getByTestId("demo-model-badge")).toBeVisible();

  // Inspector of one iteration item: the tool's input and output.
  await page.locator('[data-testid="timeline-row"][data-node-id="tool_1"][data-iteration-path="0"]').click();
  const inspector = page.getByTestId("node-run-inspector");
  await expect(inspector).toHaveAttribute("data-node-id", "tool_1");
  await expect(inspector.getByTestId("inspector-inputs")).not.toHaveText("—");
  await expect(inspector.getByTestId("inspector-outputs")).toContainText("result");

  // Single-node run: the synthesizer alone, its upstream outputs prefilled from the last run.
  await editor.select("synthesizer_1");
  await page.getByTestId("run-single-node").click();
  await expect(page.getByTestId("single-node-upstream-iteration_1")).toHaveValue(/"output"/);
  await page.getByTestId("single-node-run-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(editor.runStatus("synthesizer_1")).toHaveAttribute("data-status", "succeeded");
  await expect(editor.runStatus("planner_1")).toHaveCount(0);

  // Undo/redo: deleting a node is one step; undo brings it back with its edges.
  await page.getByTestId("bottom-panel-run").getByLabel("Close panel").click();
  await editor.select("synthesizer_1");
  await page.keyboard.press("Delete");
  await expect(editor.node("synthesizer_1")).toHaveCount(0);
  await expect(editor.edges).toHaveCount(2);
  await page.keyboard.press("ControlOrMeta+z");
  await expect(editor.node("synthesizer_1")).toBeVisible();
  await expect(editor.edges).toHaveCount(4);
  await page.getByTestId("redo").click();
  await expect(editor.node("synthesizer_1")).toHaveCount(0);
  await page.getByTestId("undo").click();
  await expect(editor.node("synthesizer_1")).toBeVisible();

  // Reload: the draft was autosaved.
  await editor.waitSaved();
  await page.reload();
  await editor.goto(id);
  await expect(page.locator(".react-flow__node")).toHaveCount(6);
  await expect(editor.edges).toHaveCount(4);
  await editor.select("planner_1");
  await expect(editor.field("goal")).toHaveText("{{start_1.question}}");
});
