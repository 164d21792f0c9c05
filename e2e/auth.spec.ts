import { expect, test } from "@playwright/test";

test.describe("sign-in", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("pages redirect to sign-in and APIs answer 401 without a session", async ({ page, request }) => {
    await page.goto("/workflows");
    await expect(page).toHaveURL(/\/login\?next=%2Fworkflows$/);
    const api = await request.get("/api/workflows");
    expect(api.status()).toBe(401);
    expect((await api.json()).error.code).toBe("unauthorized");
  });

  test("a wrong password is refused and the right one opens the app", async ({ page }) => {
    await page.goto("/login?next=/workflows");
    await page.getByTestId("login-email").fill("admin@trellis.local");
    await page.getByTestId("login-password").fill("wrong-password");
    await page.getByTestId("login-submit").click();
    await expect(page.getByTestId("login-error")).toHaveText("The e-mail or password is wrong.");
    await page.getByTestId("login-password").fill("trellis-admin");
    await page.getByTestId("login-submit").click();
    await expect(page).toHaveURL(/\/workflows$/);
    await expect(page.getByTestId("workflow-row").first()).toBeVisible();
  });
});
