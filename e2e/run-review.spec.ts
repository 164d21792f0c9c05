import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";
import { RunDetailPage } from "./pages/runs-page";

/** The template workflow with a code node that throws: its runs fail with the node's own code. */
function brokenDocument() {
  const broken = templateDocument();
  broken.nodes[1] = {
    id: "template_1",
    type: "code",
    position: { x: 300, y: 0 },
    data: {
      title: "Greeting",
      errorStrategy: "fail-run",
      language: "javascript",
      code: 'function main() { throw new Error("no greeting today"); }',
      inputs: [],
      outputs: [{ name: "text", type: "string" }],
    },
  };
  return broken;
}

/** start → llm (the demo model answers offline) → end: a run with tokens for the usage chart. */
function llmDocument() {
  const document = templateDocument();
  document.nodes[1] = {
    id: "template_1",
    type: "llm",
    position: { x: 300, y: 0 },
    data: {
      title: "Answer",
      errorStrategy: "fail-run",
      model: { provider: "default", model: "gpt-4o-mini" },
      userPrompt: "Answer briefly: {{start.question}}",
    },
  };
  document.nodes[2].data.outputs = [{ name: "answer", value: "{{template_1.text}}" }];
  return document;
}

/** No serious or critical axe violation on the page as it is now (as e2e/a11y.spec.ts checks). */
async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map((node) => node.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
  expect(serious, label).toEqual([]);
}

const queueRow = (page: Page, runId: string) => page.locator(`[data-testid="needs-review-row"][data-id="${runId}"]`);

test("review a failed run: rate, label, comment on a node, mark reviewed and see it leave the queue", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E review ${Date.now()}`, templateDocument());
  const failed = await runToEnd(
    request,
    workflowId,
    { question: "x" },
    { expectedStatus: "failed", document: brokenDocument() },
  );

  await page.goto("/runs");
  await page.getByTestId("needs-review-link").first().click();
  await page.waitForURL("**/runs/review");
  await expect(queueRow(page, failed)).toBeVisible();
  await queueRow(page, failed).getByRole("link").first().click();
  await page.waitForURL(`**/runs/${failed}`);

  const review = page.getByTestId("run-review");
  await page.getByTestId("rate-bad").click();
  await expect(review).toHaveAttribute("data-rating", "bad");
  await page.getByTestId("label-input").fill("regression");
  await page.getByTestId("label-input").press("Enter");
  await expect(page.getByTestId("run-label")).toHaveText("regression");

  // A note on the failing node: the inspector's node run is the comment's target.
  const run = new RunDetailPage(page);
  await run.timelineRow("template_1").click();
  await expect(run.inspector).toHaveAttribute("data-node-id", "template_1");
  await page.getByTestId("comment-input").fill("@nobody can you look?");
  await page.getByTestId("comment-submit").click();
  await expect(page.getByTestId("review-error")).toContainText("@nobody");
  await page.getByTestId("comment-input").fill("@admin the code node throws on every input");
  await page.getByTestId("comment-submit").click();
  const note = page.getByTestId("run-comment");
  await expect(note).toHaveCount(1);
  await expect(note).toHaveAttribute("data-node-id", "template_1");
  await expect(note).toContainText("Admin");

  // The note links to that node in the inspector.
  await page.goto(`/runs/${failed}`);
  await expect(run.detail).toBeVisible();
  await page.getByTestId("comment-node-link").click();
  await page.waitForURL(/node=template_1/);
  await expect(run.inspector).toHaveAttribute("data-node-id", "template_1");

  // Still queued until someone marks it reviewed.
  await page.goto("/runs/review");
  await expect(queueRow(page, failed)).toContainText("rated bad");
  await page.goto(`/runs/${failed}`);
  await page.getByTestId("mark-reviewed").click();
  await expect(review).toHaveAttribute("data-reviewed", "true");
  await page.goto("/runs/review");
  await expect(page.getByTestId("needs-review-total")).toBeVisible();
  await expect(queueRow(page, failed)).toHaveCount(0);

  // The shared view shows the review but offers no controls.
  await page.goto(`/runs/${failed}?view=share`);
  await expect(review).toHaveAttribute("data-reviewed", "true");
  await expect(page.getByTestId("rate-bad")).toHaveCount(0);
  await expect(page.getByTestId("comment-input")).toHaveCount(0);
});

test("compare two runs side by side, then re-run one on the draft and follow the link back", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E compare ${Date.now()}`, templateDocument());
  const first = await runToEnd(request, workflowId, { question: "first" });
  const failed = await runToEnd(
    request,
    workflowId,
    { question: "second" },
    { expectedStatus: "failed", document: brokenDocument() },
  );

  await page.goto(`/runs/${first}`);
  await page.getByTestId("compare-input").fill(`http://127.0.0.1/runs/${failed}`);
  await page.getByTestId("compare").click();
  await page.waitForURL(/\/runs\/compare\?a=/);
  await expect(page.getByTestId("run-compare")).toBeVisible();
  await expect(page.getByTestId("version-diff")).toHaveAttribute("data-identical", "false");
  await expect(page.getByTestId("compare-inputs")).toContainText("first");
  await expect(page.getByTestId("compare-inputs")).toContainText("second");
  const greeting = page.locator('[data-testid="compare-node"][data-id="template_1"]');
  await expect(greeting).toContainText("succeeded");
  await expect(greeting).toContainText("failed");

  // Re-run the first run on the current draft: same inputs, a new run that links back.
  await page.goto(`/runs/${first}`);
  await page.getByTestId("rerun-target").selectOption("draft");
  await page.getByTestId("rerun").click();
  await page.waitForURL((url) => /\/runs\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(first));
  await expect(page.getByTestId("rerun-of-link")).toHaveAttribute("href", `/runs/${first}`);
  await expect(page.getByTestId("run-outputs")).toContainText("Hello first");
  await page.getByTestId("rerun-of-link").click();
  await page.waitForURL(`**/runs/${first}`);
  await expect(page.getByTestId("rerun-link")).toHaveCount(1);
});

for (const theme of ["light", "dark"] as const) {
  for (const width of [1440, 1024]) {
    test(`review pages look right at ${width} px, ${theme}`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 1000 });
      await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
      const workflowId = await createWorkflow(request, `E2E look ${theme} ${width}`, llmDocument());
      const a = await runToEnd(request, workflowId, { question: "What is Trellis?" });
      const b = await runToEnd(
        request,
        workflowId,
        { question: "x" },
        { expectedStatus: "failed", document: brokenDocument() },
      );
      await request.patch(`/api/runs/${b}/review`, { data: { rating: "bad", labels: ["regression"] } });
      await request.post(`/api/runs/${b}/comments`, { data: { body: "@admin please look", nodeId: "template_1" } });

      await page.goto(`/runs/${a}`);
      await expect(page.getByTestId("usage-chart")).toBeVisible();
      await page.screenshot({ path: `test-results/review-look/run-${width}-${theme}.png`, fullPage: true });
      await expectAccessible(page, "run page");
      await page.goto(`/runs/${b}`);
      await expect(page.getByTestId("run-comment")).toHaveCount(1);
      await page.screenshot({ path: `test-results/review-look/run-failed-${width}-${theme}.png`, fullPage: true });
      await page.goto(`/runs/compare?a=${a}&b=${b}`);
      await expect(page.getByTestId("run-compare")).toBeVisible();
      await page.screenshot({ path: `test-results/review-look/compare-${width}-${theme}.png`, fullPage: true });
      await expectAccessible(page, "compare page");
      await page.goto("/runs/review");
      await expect(queueRow(page, b)).toBeVisible();
      await page.screenshot({ path: `test-results/review-look/queue-${width}-${theme}.png`, fullPage: true });
      await expectAccessible(page, "needs-review page");
    });
  }
}
