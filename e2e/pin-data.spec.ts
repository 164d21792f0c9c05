import { expect, test } from "@playwright/test";
import { createWorkflow, llmDocument, savedDraft } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("a node's outputs are pinned from a run or typed as a mock, editor runs skip it as pinned, and it can be unpinned", async ({
  page,
  request,
}) => {
  const document = llmDocument();
  (document.nodes[1].data as Record<string, unknown>).userPrompt = "Say hi to {{start.question}}";
  document.nodes.push({
    id: "end",
    type: "end",
    position: { x: 600, y: 0 },
    data: { title: "End", errorStrategy: "fail-run", outputs: [{ name: "answer", value: "{{llm_1.text}}" }] },
  });
  document.edges.push({ id: "edge_end", source: "llm_1", target: "end" });
  const workflowId = await createWorkflow(request, `E2E pins ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  await editor.run({ question: "Ada" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  const firstRunId = await page.getByTestId("run-panel").getAttribute("data-run-id");
  await editor.select("llm_1");
  await page.getByTestId("pin-from-run").click();
  await expect(editor.node("llm_1").getByTestId("node-pinned")).toHaveAttribute("data-source", "run");

  await page.getByTestId("pin-mock").click();
  await page.getByTestId("pin-mock-input").fill("[1, 2]");
  await page.getByTestId("pin-mock-save").click();
  await expect(page.getByTestId("pin-mock-error")).toContainText("JSON object");
  await page.getByTestId("pin-mock-input").fill('{"text": "mocked hello"}');
  await page.getByTestId("pin-mock-save").click();
  await expect(editor.node("llm_1").getByTestId("node-pinned")).toHaveAttribute("data-source", "mock");
  await editor.waitSaved();
  const saved = await savedDraft(request, workflowId);
  expect(saved.nodes.find((node) => node.id === "llm_1")?.data.pin).toEqual({
    outputs: { text: "mocked hello" },
    source: "mock",
  });

  await editor.run({ question: "Ada" });
  // The panel still shows the first run's status until the new run's id arrives.
  await expect(page.getByTestId("run-panel")).not.toHaveAttribute("data-run-id", firstRunId ?? "");
  const runId = await page.getByTestId("run-panel").getAttribute("data-run-id");
  await expect
    .poll(async () => (await (await request.get(`/api/runs/${runId ?? ""}`)).json()).run.status, { timeout: 30_000 })
    .toBe("succeeded");
  const detail = await (await request.get(`/api/runs/${runId ?? ""}`)).json();
  const llmRun = (detail.nodeRuns as { nodeId: string; processData: unknown; outputs: unknown }[]).find(
    (row) => row.nodeId === "llm_1",
  );
  expect(llmRun?.processData).toMatchObject({ pinned: true, pinSource: "mock" });
  expect(detail.run.outputs).toEqual({ answer: "mocked hello" });

  await editor.select("llm_1");
  await page.getByTestId("unpin").click();
  await expect(editor.node("llm_1").getByTestId("node-pinned")).toHaveCount(0);
});
