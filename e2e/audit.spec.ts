import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { createApiKey } from "./support/api-setup";

test("the audit log lists a change with who, what, target and where, filters in the URL, and exports", async ({
  page,
  request,
}) => {
  const keyName = `audit-key-${Date.now()}`;
  const secret = await createApiKey(request, keyName);

  await page.goto("/settings");
  await page.getByTestId("settings-audit-link").click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  const row = page.locator('[data-testid="audit-row"][data-action="api_key.created"]').filter({ hasText: keyName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("127.0.0.1");
  await expect(row).toContainText("@");
  expect(await page.content()).not.toContain(secret);

  // Filters go into the URL and survive a reload.
  await page.locator("#audit-action").fill("api_key.");
  await page.getByTestId("audit-apply").click();
  await expect(page).toHaveURL(/action=api_key\./);
  await page.reload();
  await expect(page.locator("#audit-action")).toHaveValue("api_key.");
  const actions = await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((row) => row.dataset.action));
  expect(actions.length).toBeGreaterThan(0);
  expect(actions.every((action) => action?.startsWith("api_key."))).toBe(true);

  // The export link carries the same filters and downloads JSON Lines.
  const href = await page.getByTestId("audit-export").getAttribute("href");
  expect(href).toContain("action=api_key.");
  const exported = await request.get(href!);
  expect(exported.headers()["content-type"]).toContain("application/x-ndjson");
  const lines = (await exported.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(lines.some((line) => line.action === "api_key.created" && line.target.label === keyName)).toBe(true);

  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(results.violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? ""))).toEqual(
    [],
  );
});
