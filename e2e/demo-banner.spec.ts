import { expect, test } from "@playwright/test";

test("the demo banner wraps instead of truncating and follows the workspace's providers without a reload", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto("/settings/providers");
  const banner = page.getByTestId("demo-mode-banner");
  await expect(banner).toHaveAttribute("data-providers", "0");
  await expect(banner).toContainText("No model provider is configured");
  await expect(banner.getByRole("link", { name: "add a provider" })).toHaveAttribute("href", "/settings/providers");
  // Nothing is cut off: the text fits its box at 1024 px.
  const clipped = await banner.evaluate(
    (element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
  );
  expect(clipped).toBe(false);

  const name = `banner-${Date.now()}`;
  const created = await request.post("/api/providers", {
    data: { name, baseURL: "http://127.0.0.1:9/v1", apiKey: "", models: ["m1"] },
  });
  expect(created.ok()).toBe(true);
  await page.reload();
  await expect(banner).toHaveAttribute("data-providers", "1");
  await expect(banner).toContainText(name);
  await expect(banner).not.toContainText("No model provider is configured");

  // Deleting it in the page updates the banner in place (router.refresh re-renders the layout).
  const row = page.locator(`[data-testid="provider-row"][data-name="${name}"]`);
  await row.getByTestId("delete-provider").click();
  await page.getByTestId("confirm-delete-provider").click();
  await expect(row).toHaveCount(0);
  await expect(banner).toHaveAttribute("data-providers", "0");
  await expect(banner).toContainText("No model provider is configured");
});
