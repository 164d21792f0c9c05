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

test.describe("sessions", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("signing out deletes the session: a copied cookie stops working", async ({ browser, playwright, baseURL }) => {
    // A session of its own (the shared admin session of the other specs stays untouched).
    const api = await playwright.request.newContext({ baseURL });
    expect((await api.post("/api/auth/login", { data: adminLogin })).status()).toBe(200);
    const copy = await browser.newContext({ storageState: await api.storageState() });
    expect((await copy.request.get("/api/workflows")).status()).toBe(200);
    expect((await api.post("/api/auth/logout")).status()).toBe(200);
    const refused = await copy.request.get("/api/workflows");
    expect(refused.status()).toBe(401);
    // Pages check the session row too, though the proxy only sees a well-formed cookie.
    const page = await copy.newPage();
    await page.goto("/workflows");
    await expect(page).toHaveURL(/\/login/);
    await copy.close();
    await api.dispose();
  });

  test("the account page lists the sessions and signs out everywhere", async ({ browser, playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL });
    expect((await admin.post("/api/auth/login", { data: adminLogin })).status()).toBe(200);
    const email = `sessions-${Date.now()}@example.test`;
    // Members join by invitation: the admin invites the e-mail, the person signs up through the link.
    const invited = await admin.post("/api/invitations", { data: { role: "editor", email } });
    expect(invited.status()).toBe(201);
    const { token } = (await invited.json()) as { token: string };
    const joining = await playwright.request.newContext({ baseURL });
    const joined = await joining.post(`/api/invite/${token}/sign-up`, {
      data: { name: "Sessions", email, password: "sessions-password" },
    });
    expect(joined.status(), await joined.text()).toBe(201);
    await joining.dispose();
    const elsewhere = await playwright.request.newContext({ baseURL, userAgent: "Elsewhere/1.0 (Windows)" });
    expect((await elsewhere.post("/api/auth/login", { data: { email, password: "sessions-password" } })).status()).toBe(
      200,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/login?next=/account");
    await page.getByTestId("login-email").fill(email);
    await page.getByTestId("login-password").fill("sessions-password");
    await page.getByTestId("login-submit").click();
    await expect(page).toHaveURL(/\/account$/);
    const rows = page.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    await expect(page.getByTestId("session-current")).toHaveCount(1);
    await expect(rows.filter({ hasText: "Elsewhere" })).toContainText("127.0.0.1");
    await page.getByTestId("sign-out-everywhere").click();
    await page.waitForURL("**/login**");
    expect((await elsewhere.get("/api/workflows")).status()).toBe(401);
    expect((await context.request.get("/api/workflows")).status()).toBe(401);
    // The admin's own sessions are not touched.
    expect((await admin.get("/api/workflows")).status()).toBe(200);
    await context.close();
    await elsewhere.dispose();
    await admin.dispose();
  });
});

const adminLogin = { email: "admin@trellis.local", password: "trellis-admin" };
