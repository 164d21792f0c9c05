import { expect, test } from "@playwright/test";

test.describe("foundation", () => {
  test("the home page lists workflows, including the seeded examples", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/workflows$/);
    const rows = page.getByTestId("workflow-row");
    await expect(rows.filter({ hasText: "Plan and execute" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "ReAct bet" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Ticket blockers" })).toHaveCount(1);
    // The e2e server has no provider configured: every page says demo answers are not real.
    await expect(page.getByTestId("demo-mode-banner")).toContainText("local demo stub");
    // The app header reaches every section; the list's own header keeps only its own actions.
    for (const [testId, path] of [
      ["nav-runs", /\/runs$/],
      ["nav-evaluations", /\/evaluations$/],
      ["nav-account", /\/account$/],
      ["nav-settings", /\/settings$/],
    ] as const) {
      await page.getByTestId(testId).click();
      await expect(page).toHaveURL(path);
    }
  });

  test("New workflow opens an empty editor with a React Flow canvas", async ({ page }) => {
    await page.goto("/workflows");
    await page.getByTestId("new-workflow").click();
    await page.getByTestId("new-workflow-name").fill("Foundation smoke");
    await page.getByTestId("create-workflow").click();
    await expect(page).toHaveURL(/\/workflows\/[^/]+$/);
    const canvas = page.locator(".react-flow");
    await expect(canvas).toBeVisible();
    await expect(page.locator(".react-flow__node")).toHaveCount(0);
  });

  test("the health endpoint answers", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.ok()).toBe(true);
    expect(await response.json()).toMatchObject({
      ok: true,
      checks: { database: { status: "up" }, redis: { status: "not_configured" }, queue: { depth: null } },
    });
  });

  test("/metrics is outside the session check and off unless TRELLIS_METRICS=true", async ({ request }) => {
    const response = await request.get("/metrics");
    expect(response.status()).toBe(404);
    expect((await response.json()).error.code).toBe("metrics_not_enabled");
  });
});
