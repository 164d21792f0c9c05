import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { exampleWorkflowId } from "./fixtures/examples";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";

/**
 * axe on every page, in the light and the dark theme: no serious or critical violation.
 * Exclusions name their owner and reason; none are needed today.
 */
const THEMES = ["light", "dark"] as const;

/** Fails with a readable list of the serious and critical violations on the page as it is now. */
async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(" ")} — ${node.failureSummary?.split("\n").join(" ")}`)
        .join("\n")}`,
  );
  expect(report, `${label}\n${report.join("\n")}`).toEqual([]);
}

/** Opens a page in a theme (no stored choice: the emulated system scheme decides) and waits for it. */
async function open(page: Page, path: string, theme: (typeof THEMES)[number], ready?: string): Promise<void> {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
  await page.goto(path);
  if (theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
  else await expect(page.locator("html")).not.toHaveClass(/dark/);
  if (ready) await expect(page.locator(ready).first()).toBeVisible();
  // Let entry animations finish so colours are final.
  await page.waitForTimeout(300);
}

let exampleId = "";
let runWorkflowId = "";
let runId = "";

test.describe("signed in", () => {
  test.beforeAll(async ({ request }) => {
    exampleId = await exampleWorkflowId(request);
    runWorkflowId = await createWorkflow(request, `E2E a11y ${Date.now()}`, templateDocument());
    runId = await runToEnd(request, runWorkflowId, { question: "a11y" });
  });

  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test("workflow list, run history, a run page", async ({ page }) => {
        await open(page, "/workflows", theme, '[data-testid="workflow-row"]');
        await expectNoSeriousViolations(page, "/workflows");
        await open(page, "/runs", theme);
        await expectNoSeriousViolations(page, "/runs");
        await open(page, `/workflows/${runWorkflowId}/runs`, theme);
        await expectNoSeriousViolations(page, "/workflows/:id/runs");
        await open(page, `/runs/${runId}`, theme, '[data-testid="run-detail"]');
        await expectNoSeriousViolations(page, "/runs/:id");
      });

      test("the editor with an example, its config panel and its run panel", async ({ page }) => {
        await open(page, `/workflows/${exampleId}`, theme, ".react-flow__node");
        await expectNoSeriousViolations(page, "editor");
        await page.locator('.react-flow__node[data-id="planner"]').getByTestId("node-title").click();
        await expect(page.getByTestId("config-panel")).toBeVisible();
        await expectNoSeriousViolations(page, "editor with the config panel");
        await page.getByTestId("run-panel-toggle").click();
        await expect(page.getByTestId("bottom-panel-run")).toBeVisible();
        await expectNoSeriousViolations(page, "editor with the run panel");
      });

      test("settings pages and account", async ({ page }) => {
        for (const path of [
          "/settings",
          "/settings/tools",
          "/settings/providers",
          "/settings/credentials",
          "/settings/api-keys",
          "/settings/members",
          "/settings/variables",
          "/account",
        ]) {
          await open(page, path, theme, "main");
          await expectNoSeriousViolations(page, path);
        }
      });
    });
  }
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  for (const theme of THEMES) {
    test(`login, ${theme} theme`, async ({ page }) => {
      await open(page, "/login", theme, '[data-testid="login-form"]');
      await expectNoSeriousViolations(page, "/login");
    });
  }
});
