import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

/** start(query, history) → LLM on the demo model → end(answer). */
function chatDocument(withHistory: boolean) {
  return {
    schemaVersion: 2,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: {
          title: "Start",
          errorStrategy: "fail-run",
          inputs: [
            { name: "query", type: "string", required: true },
            ...(withHistory ? [{ name: "history", type: "array", required: false }] : []),
          ],
        },
      },
      {
        id: "llm_1",
        type: "llm",
        position: { x: 300, y: 0 },
        data: {
          title: "Answer",
          errorStrategy: "fail-run",
          model: { provider: "default", model: "gpt-4o-mini" },
          userPrompt: "Answer briefly: {{start.query}}",
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 0 },
        data: { title: "End", errorStrategy: "fail-run", outputs: [{ name: "answer", value: "{{llm_1.text}}" }] },
      },
    ],
    edges: [
      { id: "edge_1", source: "start", target: "llm_1" },
      { id: "edge_2", source: "llm_1", target: "end" },
    ],
  };
}

test("the chat preview runs the draft per message on the demo model, streams the answer, links the run and passes the history", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E chat ${Date.now()}`, chatDocument(true));
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("chat-preview-toggle").click();
  const panel = page.getByTestId("chat-preview");
  await expect(panel.getByTestId("chat-preview-mode")).toContainText("history");

  await panel.getByTestId("chat-preview-input").fill("What is Trellis?");
  await panel.getByTestId("chat-preview-input").press("Enter");
  const answers = panel.locator('[data-testid="chat-message"][data-role="assistant"]');
  await expect(answers).toHaveCount(1);
  await expect(answers.first()).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(answers.first().getByTestId("chat-answer")).not.toBeEmpty();
  const firstAnswer = (await answers.first().getByTestId("chat-answer").textContent()) ?? "";
  // The run is the editor's current run: the canvas shows its statuses, and the message links to it.
  await expect(editor.runStatus("llm_1")).toHaveAttribute("data-status", "succeeded");
  const href = (await answers.first().getByTestId("chat-run-link").getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/runs\/[^/]+$/);
  const firstRun = (await (await request.get(`/api/${href.slice(1)}`)).json()) as {
    run: { status: string; outputs: { answer?: string } };
  };
  expect(firstRun.run.status).toBe("succeeded");
  expect(firstRun.run.outputs.answer).toBe(firstAnswer);

  // The second message carries the conversation so far in `history`.
  await panel.getByTestId("chat-preview-input").fill("And why?");
  await panel.getByTestId("chat-preview-send").click();
  await expect(answers).toHaveCount(2);
  await expect(answers.nth(1)).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  const secondHref = (await answers.nth(1).getByTestId("chat-run-link").getAttribute("href")) ?? "";
  expect(secondHref).not.toBe(href);
  const second = (await (await request.get(`/api/${secondHref.slice(1)}`)).json()) as {
    run: { inputs: { query: string; history?: { role: string; content: string }[] } };
  };
  expect(second.run.inputs.query).toBe("And why?");
  expect(second.run.inputs.history).toEqual([
    { role: "user", content: "What is Trellis?" },
    { role: "assistant", content: firstAnswer },
  ]);
  await expect(panel.getByTestId("chat-message")).toHaveCount(4);
  await page.screenshot({ path: "test-results/chat-preview.png" });
});

test("without a history input each message is a fresh run; a start without a text input says so", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E chat fresh ${Date.now()}`, chatDocument(false));
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("chat-preview-toggle").click();
  const panel = page.getByTestId("chat-preview");
  await expect(panel.getByTestId("chat-preview-mode")).toContainText("a fresh run");
  await panel.getByTestId("chat-preview-input").fill("Hello");
  await panel.getByTestId("chat-preview-send").click();
  const answer = panel.locator('[data-testid="chat-message"][data-role="assistant"]').first();
  await expect(answer).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  const href = (await answer.getByTestId("chat-run-link").getAttribute("href")) ?? "";
  const run = (await (await request.get(`/api/${href.slice(1)}`)).json()) as { run: { inputs: object } };
  expect(run.run.inputs).toEqual({ query: "Hello" });

  const document = templateDocument();
  document.nodes[0].data.inputs = [{ name: "count", type: "number", required: false }];
  const numberOnly = await createWorkflow(request, `E2E chat none ${Date.now()}`, document);
  await editor.goto(numberOnly);
  await page.getByTestId("chat-preview-toggle").click();
  await expect(page.getByTestId("chat-preview-unavailable")).toBeVisible();
});
