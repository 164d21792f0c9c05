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
let secondRunId = "";
let datasetId = "";
let evaluationId = "";
let tagName = "";
/** An invitation link (`/invite/<token>`), opened signed in and signed out. */
let invitePath = "";

test.describe("signed in", () => {
  test.beforeAll(async ({ request }) => {
    exampleId = await exampleWorkflowId(request);
    runWorkflowId = await createWorkflow(request, `E2E a11y ${Date.now()}`, templateDocument());
    runId = await runToEnd(request, runWorkflowId, { question: "a11y" });
    secondRunId = await runToEnd(request, runWorkflowId, { question: "a11y again" });
    const dataset = await request.post("/api/datasets/from-run", {
      data: { runId, newDatasetName: `E2E a11y cases ${Date.now()}`, expectOutput: true },
    });
    expect(dataset.status(), await dataset.text()).toBe(201);
    datasetId = ((await dataset.json()) as { datasetId: string }).datasetId;
    const evaluation = await request.post("/api/evaluations", {
      data: { workflowId: runWorkflowId, version: "draft", datasetId, trials: 1 },
    });
    expect(evaluation.status(), await evaluation.text()).toBe(202);
    evaluationId = ((await evaluation.json()) as { evaluationId: string }).evaluationId;
    tagName = `a11y-${Date.now()}`;
    const tag = await request.post("/api/tags", { data: { name: tagName, color: "green" } });
    expect(tag.status()).toBe(201);
    const tagId = ((await tag.json()) as { tag: { id: string } }).tag.id;
    expect((await request.put(`/api/workflows/${runWorkflowId}/tags`, { data: { tagIds: [tagId] } })).ok()).toBe(true);
    const invitation = await request.post("/api/invitations", { data: { role: "editor" } });
    expect(invitation.status()).toBe(201);
    invitePath = ((await invitation.json()) as { path: string }).path;
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

      test("settings pages and account (with its sessions list)", async ({ page }) => {
        for (const path of [
          "/settings",
          "/settings/tools",
          "/settings/providers",
          "/settings/credentials",
          "/settings/api-keys",
          "/settings/members",
          "/settings/variables",
          "/settings/retention",
          "/settings/audit",
        ]) {
          await open(page, path, theme, "main");
          await expectNoSeriousViolations(page, path);
        }
        await open(page, "/settings/audit", theme, '[data-testid="audit-log"]');
        await expectNoSeriousViolations(page, "/settings/audit with entries");
        await open(page, "/account", theme, '[data-testid="session-row"]');
        await expectNoSeriousViolations(page, "/account with its sessions list");
      });

      test("evaluations, run comparison and review, the API docs, an invitation", async ({ page }) => {
        for (const [path, ready] of [
          ["/evaluations", "main"],
          [`/evaluations/datasets/${datasetId}`, '[data-testid="dataset-editor"]'],
          [`/evaluations/runs/${evaluationId}`, '[data-testid="evaluation-run"]'],
          [`/evaluations/compare?base=${evaluationId}&candidate=${evaluationId}`, "main"],
          [`/runs/compare?a=${runId}&b=${secondRunId}`, "main"],
          ["/runs/review", "main"],
          ["/docs/api", "main"],
          [invitePath, '[data-testid="invite-card"]'],
        ] as const) {
          await open(page, path, theme, ready);
          await expectNoSeriousViolations(page, path.replace(/[0-9a-z_-]{16,}/gi, ":id"));
        }
      });

      test("settings dialogs (provider, OpenAPI with its error, MCP, API key edit, a delete) and Add to dataset", async ({
        page,
        request,
      }) => {
        await open(page, "/settings/providers", theme, '[data-testid="add-provider"]');
        await page.getByTestId("add-provider").click();
        const provider = page.getByTestId("provider-dialog");
        await provider.getByRole("button", { name: "Add", exact: true }).click();
        await provider.getByRole("button", { name: "Add override" }).click();
        await expectNoSeriousViolations(page, "provider dialog (a header row and an override row)");
        await page.keyboard.press("Escape");

        await open(page, "/settings/tools", theme, '[data-testid="add-openapi"]');
        await page.getByTestId("add-openapi").click();
        const openapi = page.getByTestId("openapi-dialog");
        await openapi.getByTestId("source-name").fill(`a11y ${theme}`);
        await openapi.getByTestId("save-source").click();
        await expect(openapi.getByTestId("source-error")).toBeVisible();
        await expectNoSeriousViolations(page, "OpenAPI dialog (with its error)");
        await page.keyboard.press("Escape");
        await page.getByTestId("add-mcp").click();
        await expect(page.getByTestId("mcp-dialog")).toBeVisible();
        await expectNoSeriousViolations(page, "MCP dialog");
        await page.keyboard.press("Escape");

        const key = await request.post("/api/api-keys", { data: { name: `a11y ${theme}`, scopes: ["run"] } });
        expect(key.status(), await key.text()).toBe(201);
        await open(page, "/settings/api-keys", theme, '[data-testid="api-key-row"]');
        const row = page.locator(`[data-testid="api-key-row"][data-name="a11y ${theme}"]`);
        await row.getByTestId("edit-api-key").click();
        await expect(page.getByTestId("edit-api-key-dialog")).toBeVisible();
        await expectNoSeriousViolations(page, "edit API key dialog");
        await page.keyboard.press("Escape");
        await row.getByTestId("revoke-api-key").click();
        await expect(page.getByTestId("revoke-api-key-dialog")).toBeVisible();
        await expectNoSeriousViolations(page, "revoke API key confirmation");
        await page.keyboard.press("Escape");

        await open(page, `/runs/${runId}`, theme, '[data-testid="add-to-dataset"]');
        await page.getByTestId("add-to-dataset").click();
        await expect(page.getByTestId("add-to-dataset-form")).toBeVisible();
        await expectNoSeriousViolations(page, "Add to dataset (open)");
      });

      test("open menus and dialogs: workspace switcher and creation, row menu, tag editor, manage tags, run-history pickers", async ({
        page,
      }) => {
        await open(page, "/workflows", theme, '[data-testid="workflow-row"]');
        await page.getByTestId("workspace-switcher").click();
        await expect(page.getByTestId("workspace-menu")).toBeVisible();
        await expectNoSeriousViolations(page, "workspace switcher (open)");
        await page.getByTestId("create-workspace").click();
        await expect(page.getByTestId("create-workspace-dialog")).toBeVisible();
        await page.getByTestId("create-workspace-submit").click();
        await expect(page.getByTestId("workspace-name-error")).toBeVisible();
        await expectNoSeriousViolations(page, "workspace creation (with its field error)");
        await page.keyboard.press("Escape");
        await expect(page.getByTestId("create-workspace-dialog")).toBeHidden();

        const workflowRow = page.locator(`[data-testid="workflow-row"][data-id="${runWorkflowId}"]`);
        await workflowRow.getByTestId("workflow-actions").click();
        await expect(page.getByRole("menu")).toBeVisible();
        await expectNoSeriousViolations(page, "workflow row menu (open)");
        await page.getByRole("menu").getByTestId("edit-workflow-tags").click();
        await expect(page.getByTestId("tag-option").first()).toBeVisible();
        await expectNoSeriousViolations(page, "tag editor dialog");
        await page.keyboard.press("Escape");
        await page.getByTestId("manage-tags-button").click();
        await expect(page.getByTestId("manage-tag-row").first()).toBeVisible();
        const row = page.locator(`[data-testid="manage-tag-row"][data-tag="${tagName}"]`);
        await row.getByTestId("manage-tag-delete").click();
        await expect(row.getByTestId("manage-tag-confirm")).toBeVisible();
        await row.getByTestId("manage-tag-rename").click();
        await expectNoSeriousViolations(page, "manage tags dialog (rename and confirm open)");
        await page.keyboard.press("Escape");
        await page.keyboard.press("Escape");

        await open(page, "/runs", theme, '[data-testid="history-workflow"]');
        await page.getByTestId("history-workflow").click();
        await expect(page.getByTestId("history-workflow-search")).toBeVisible();
        await expectNoSeriousViolations(page, "run history: workflow picker (open)");
        await page.keyboard.press("Escape");
        await page.getByTestId("history-api-key").click();
        await expect(page.getByTestId("history-api-key-search")).toBeVisible();
        await expectNoSeriousViolations(page, "run history: API key picker (open)");
        await page.keyboard.press("Escape");
        await open(page, `/workflows/${runWorkflowId}/runs`, theme, '[data-testid="history-version"]');
        await page.getByTestId("history-version").click();
        await expect(page.getByTestId("history-version-search")).toBeVisible();
        await expectNoSeriousViolations(page, "run history: version picker (open)");
      });

      test("the chat preview panel, with a conversation", async ({ page }) => {
        await open(page, `/workflows/${runWorkflowId}`, theme, ".react-flow__node");
        await page.getByTestId("chat-preview-toggle").click();
        const panel = page.getByTestId("chat-preview");
        await expect(panel).toBeVisible();
        await expectNoSeriousViolations(page, "chat preview (empty)");
        await panel.getByTestId("chat-preview-input").fill("Hello");
        await panel.getByTestId("chat-preview-input").press("Enter");
        const answer = panel.locator('[data-testid="chat-message"][data-role="assistant"]').first();
        await expect(answer).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
        await expectNoSeriousViolations(page, "chat preview (a conversation)");
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

    test(`an invitation, signed out, ${theme} theme`, async ({ page, browser }) => {
      // The link is made with the admin's session in a context of its own.
      const admin = await browser.newContext({ storageState: "test-results/.auth/admin.json" });
      const invitation = await admin.request.post("/api/invitations", { data: { role: "viewer" } });
      expect(invitation.status()).toBe(201);
      const path = ((await invitation.json()) as { path: string }).path;
      await admin.close();
      await open(page, path, theme, '[data-testid="invite-card"]');
      await expectNoSeriousViolations(page, "/invite/:token (signed out)");
    });
  }
});
