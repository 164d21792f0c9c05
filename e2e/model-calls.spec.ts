import { expect, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";
import { RunDetailPage } from "./pages/runs-page";

test("the inspector shows which model and provider served a node's model call, with its attempts", async ({
  page,
  request,
}) => {
  const document = templateDocument();
  document.nodes[1] = {
    id: "template_1",
    type: "llm",
    position: { x: 300, y: 0 },
    data: {
      title: "Ask",
      errorStrategy: "fail-run",
      model: { provider: "default", model: "gpt-4o-mini" },
      userPrompt: "Say hello to {{start.question}}",
    },
  };
  document.nodes[2]!.data = { ...document.nodes[2]!.data, outputs: [{ name: "answer", value: "{{template_1.text}}" }] };
  const workflowId = await createWorkflow(request, `E2E model calls ${Date.now()}`, document);
  const runId = await runToEnd(request, workflowId, { question: "Ada" });

  const run = new RunDetailPage(page);
  await page.goto(`/runs/${runId}`);
  await run.timelineRow("template_1").click();
  const call = run.inspector.getByTestId("model-call").first();
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute("data-status", "succeeded");
  // No provider is configured in e2e: the offline demo model answered, and the record says so.
  await expect(call.getByTestId("model-call-provider")).toContainText("demo");
  await expect(call.getByTestId("model-call-figures")).toContainText("tokens");
  await expect(call.getByTestId("model-call-attempt").first()).toContainText("#1 ok");
});

test("the inspector lists what a partial node run's answer lacks", async ({ page, request }) => {
  const document = {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "items", type: "array", required: true }] },
      },
      {
        id: "loop",
        type: "iteration",
        position: { x: 300, y: 0 },
        width: 400,
        height: 200,
        data: {
          title: "Each item",
          input: ["start", "items"],
          outputSelector: ["check", "result"],
          errorMode: "continue",
        },
      },
      {
        id: "check",
        type: "code",
        parentId: "loop",
        position: { x: 40, y: 60 },
        data: {
          title: "Check",
          code: 'function main({ value }) {\n  if (value === 2) throw new Error("two is not allowed");\n  return { result: String(value) };\n}\n',
          inputs: [{ name: "value", value: ["item"] }],
          outputs: [{ name: "result", type: "string" }],
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 800, y: 0 },
        data: { title: "End", outputs: [{ name: "results", value: ["loop", "output"] }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "loop" },
      { id: "e2", source: "loop", target: "end" },
    ],
  };
  const workflowId = await createWorkflow(request, `E2E partial ${Date.now()}`, document);
  const runId = await runToEnd(request, workflowId, { items: [1, 2, 3] }, { expectedStatus: "partial" });

  const run = new RunDetailPage(page);
  await page.goto(`/runs/${runId}`);
  await run.timelineRow("loop").click();
  await expect(run.inspector.getByTestId("inspector-error")).toContainText("iteration_items_failed");
  await expect(run.inspector.getByTestId("inspector-missing")).toContainText("item 1");
});
