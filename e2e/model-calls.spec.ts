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
