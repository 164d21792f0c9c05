import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, runToEnd, savedDraft, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { RunDetailPage } from "./pages/runs-page";

/** start → ask (human input: verdict, a required select, and a note) → end. */
function humanInputDocument() {
  const document = templateDocument();
  return {
    schemaVersion: 2,
    nodes: [
      document.nodes[0],
      {
        id: "ask",
        type: "human-input",
        position: { x: 300, y: 0 },
        data: {
          title: "Approve",
          errorStrategy: "fail-run",
          prompt: "Approve {{start.question}}?",
          fields: [
            { name: "verdict", label: "Your verdict", type: "select", required: true, options: ["yes", "no"] },
            { name: "note", label: "Note", type: "text" },
          ],
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 0 },
        data: { title: "End", errorStrategy: "fail-run", outputs: [{ name: "verdict", value: "{{ask.verdict}}" }] },
      },
    ],
    edges: [
      { id: "edge_1", source: "start", target: "ask" },
      { id: "edge_2", source: "ask", target: "end" },
    ],
  };
}

/** The template document with its `question` input required. */
function requiredInputDocument() {
  const document = templateDocument();
  (document.nodes[0].data.inputs as { required: boolean }[])[0].required = true;
  return document;
}

async function workflowName(page: Page, workflowId: string): Promise<string> {
  const response = await page.request.get(`/api/workflows/${workflowId}`);
  return ((await response.json()) as { workflow: { name: string } }).workflow.name;
}

test("an edit made just before clicking the link to all workflows is saved, not lost", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E leave ${Date.now()}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const renamed = `E2E left quickly ${Date.now()}`;
  await page.getByTestId("workflow-name").fill(renamed);
  await page.getByRole("link", { name: "All workflows" }).click();
  await page.waitForURL("**/workflows");
  await expect.poll(() => workflowName(page, workflowId)).toBe(renamed);
});

test("a run waiting for human input is back after a reload; its run page answers and cancels", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E waiting ${Date.now()}`, humanInputDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.run({ question: "the budget" });
  const form = page.getByTestId("human-input-form");
  await expect(form).toBeVisible();
  const runId = await page.getByTestId("run-panel").getAttribute("data-run-id");

  await page.reload();
  await expect(page.getByTestId("run-panel")).toHaveAttribute("data-run-id", runId ?? "");
  await expect(form).toBeVisible();
  // Labelled fields, one per form field.
  await expect(form.getByLabel("Your verdict")).toBeVisible();
  await expect(form.getByLabel("Note")).toBeVisible();

  // The run page of the same run has the form and Cancel.
  await page.goto(`/runs/${runId}`);
  const run = new RunDetailPage(page);
  await expect(run.status).toHaveAttribute("data-status", "waiting");
  await expect(page.getByTestId("human-input-form").getByLabel("Your verdict")).toBeVisible();
  await page.getByTestId("cancel-run").click();
  await expect(run.status).toHaveAttribute("data-status", "cancelled");
  await expect(page.getByTestId("human-input-form")).toHaveCount(0);
});

test("the answer form resumes a waiting run from the run page", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E answer ${Date.now()}`, humanInputDocument());
  const runId = await runToEnd(request, workflowId, { question: "x" }, { expectedStatus: "waiting" });
  await page.goto(`/runs/${runId}`);
  const form = page.getByTestId("human-input-form");
  await form.getByLabel("Your verdict").selectOption("yes");
  await form.getByTestId("answer-submit").click();
  const run = new RunDetailPage(page);
  await expect(run.status).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-outputs")).toContainText("yes");
});

test("a tool node naming an unknown tool counts as a problem", async ({ page, request }) => {
  const document = templateDocument();
  document.nodes[1] = {
    id: "template_1",
    type: "tool",
    position: { x: 300, y: 0 },
    data: { title: "Lookup", errorStrategy: "fail-run", tool: "no_such_tool", arguments: {} },
  };
  document.nodes[2].data.outputs = [{ name: "answer", value: "{{template_1.result}}" }];
  const workflowId = await createWorkflow(request, `E2E unknown tool ${Date.now()}`, document);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "1");
});

test("the Run and Schedule dialogs refuse a missing required input", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E required ${Date.now()}`, requiredInputDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-submit").click();
  await expect(page.getByTestId("run-input-error-question")).toBeVisible();
  await expect(page.getByTestId("run-dialog")).toBeVisible();
  await expect(page.getByTestId("run-panel")).toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.getByTestId("schedule-button").click();
  const dialog = page.getByTestId("schedule-dialog");
  await expect(dialog.locator("#schedule-inputs")).toBeVisible();
  await dialog.getByTestId("schedule-save").click();
  await expect(dialog.getByTestId("schedule-error-inputs")).toContainText("question");
  await expect(dialog.getByTestId("schedule-status")).toHaveCount(0);
});

test("the run page orders the timeline by start and draws the instant End bar", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, `E2E timeline ${Date.now()}`, templateDocument());
  const runId = await runToEnd(request, workflowId, { question: 'say "hi"\nplease' });
  await page.goto(`/runs/${runId}`);
  // The header says what ran, from where and how it went.
  await expect(page.getByTestId("run-header-workflow")).toContainText("E2E timeline");
  await expect(page.getByTestId("run-header-version")).toHaveText("Draft");
  await expect(page.getByTestId("run-header-trigger")).toHaveText("Editor run");
  await expect(page.getByTestId("run-header-status")).toHaveAttribute("data-status", "succeeded");
  const rows = page.getByTestId("timeline-row");
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-node-id")))).toEqual(
    ["start", "template_1", "end"],
  );
  const endBar = await page
    .locator('[data-testid="timeline-row"][data-node-id="end"] [data-testid="timeline-bar"]')
    .boundingBox();
  expect(endBar?.width ?? 0).toBeGreaterThanOrEqual(4);

  // Outputs read as text, not as an escaped JSON string.
  const run = new RunDetailPage(page);
  await run.timelineRow("template_1").click();
  await expect(run.inspector.getByTestId("inspector-outputs")).toContainText('Hello say "hi"');
  await expect(run.inspector.getByTestId("inspector-outputs")).not.toContainText("\\n");
  // The timeline and the inspector scroll on their own.
  for (const testId of ["run-timeline-column", "run-inspector-column"]) {
    const overflow = await page.getByTestId(testId).evaluate((element) => getComputedStyle(element).overflowY);
    expect(overflow).toBe("auto");
  }
});

test("function-calling turns show their tool calls and steps count tokens as numbers", async ({ page, request }) => {
  const document = {
    schemaVersion: 2,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "city", type: "string", default: "Athens" }] },
      },
      {
        id: "agent",
        type: "agent",
        position: { x: 300, y: 0 },
        data: {
          title: "Bet agent",
          mode: "function_call",
          model: { provider: "default", model: "gpt-4o-mini" },
          tools: ["get_current_weather", "convert_currency"],
          instructions: "You settle bets about the weather. Check the weather first; convert only if it rained.",
          query: "I bet my friend 100 EUR that it would rain in {{start.city}} today. If I won, how many USD is that?",
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 0 },
        data: { title: "End", outputs: [{ name: "answer", value: "{{agent.answer}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "end" },
    ],
  };
  const workflowId = await createWorkflow(request, `E2E function calls ${Date.now()}`, document);
  const runId = await runToEnd(request, workflowId, { city: "Athens" });
  await page.goto(`/runs/${runId}`);
  const run = new RunDetailPage(page);
  await run.timelineRow("agent").click();
  const messages = run.inspector.getByTestId("process-messages");
  await expect(messages.getByTestId("message-tool-call").first()).toContainText("get_current_weather");
  await expect(messages.getByTestId("message-tool-call").first()).toContainText("Athens");
  const usage = run.inspector.getByTestId("process-steps").locator('[data-testid="step-usage"]').first();
  await expect(usage).toContainText(/\d+ in \/ \d+ out tokens/);
});

test("the saved draft keeps a renamed workflow's slug in step with its name until it is published", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, "Untitled workflow", templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const name = `Weather digest ${Date.now()}`;
  await page.getByTestId("workflow-name").fill(name);
  await editor.waitSaved();
  const response = await request.get(`/api/workflows/${workflowId}`);
  const { workflow } = (await response.json()) as { workflow: { slug: string } };
  expect(workflow.slug).toBe(name.toLowerCase().replace(/ /g, "-"));
  expect((await savedDraft(request, workflowId)).nodes).toHaveLength(3);
});

test("importing a workflow under a name already used gives it a new one", async ({ request }) => {
  const name = `E2E import twin ${Date.now()}`;
  const first = await createWorkflow(request, name, templateDocument());
  const second = await createWorkflow(request, name, templateDocument());
  const names = await Promise.all(
    [first, second].map(async (id) => {
      const response = await request.get(`/api/workflows/${id}`);
      return ((await response.json()) as { workflow: { name: string } }).workflow.name;
    }),
  );
  expect(names).toEqual([name, `${name} (2)`]);
});
