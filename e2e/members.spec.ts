import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("an admin invites a viewer by link, who creates an account, and can review a workflow and its runs but not change them", async ({
  page,
  request,
  browser,
}) => {
  const workflowId = await createWorkflow(request, `E2E members ${Date.now()}`, templateDocument());
  const email = `viewer-${Date.now()}@example.test`;

  await page.goto("/settings/members");
  await page.locator("#invite-role").selectOption("viewer");
  await page.locator("#invite-email").fill(email);
  await page.getByTestId("create-invitation").click();
  const link = await page.getByTestId("invitation-link").inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.locator('[data-testid="invitation-row"]').filter({ hasText: email })).toBeVisible();
  // Nobody is a member before they accept.
  await expect(page.locator(`[data-testid="member-row"][data-email="${email}"]`)).toHaveCount(0);

  // The viewer, in a browser of their own, creates an account on the invite page.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await viewer.goto(link);
  await expect(viewer.getByTestId("invite-role")).toHaveText("viewer");
  await expect(viewer.locator("#invite-email")).toHaveValue(email);
  await viewer.locator("#invite-name").fill("Vera Viewer");
  await viewer.locator("#invite-password").fill("short");
  await viewer.getByTestId("invite-create-account").click();
  // A real password is needed: said at that field, nothing else lost.
  await expect(viewer.getByTestId("invite-error-password")).toBeVisible();
  await viewer.locator("#invite-password").fill("viewer-password");
  await viewer.getByTestId("invite-create-account").click();
  await expect(viewer).toHaveURL(/\/workflows$/);
  await page.reload();
  const row = page.locator(`[data-testid="member-row"][data-email="${email}"]`);
  await expect(row.getByTestId("member-role")).toHaveValue("viewer");
  await expect(viewer.getByTestId("read-only-badge")).toBeVisible();
  await expect(viewer.getByTestId("new-workflow")).toHaveCount(0);
  // The header offers Settings to owners and admins only (the pages refuse anyone else anyway).
  await expect(viewer.getByTestId("workspace-switcher")).toBeVisible();
  await expect(viewer.getByTestId("nav-runs")).toBeVisible();
  await expect(viewer.getByTestId("nav-settings")).toHaveCount(0);
  await expect(page.getByTestId("nav-settings")).toBeVisible();
  // The demo banner sends only those who may add a provider to the settings; a viewer is told whom to ask.
  const viewerBanner = viewer.getByTestId("demo-mode-banner");
  await expect(viewerBanner).toContainText("ask a workspace owner or admin to add a provider");
  await expect(viewerBanner.getByRole("link")).toHaveCount(0);
  // A viewer's row menu offers the export only: no tags, duplicate or delete.
  await viewer.getByTestId("workflow-actions").first().click();
  await expect(viewer.getByRole("menu").getByTestId("export-workflow")).toBeVisible();
  await expect(viewer.getByRole("menu").getByTestId("duplicate-workflow")).toHaveCount(0);
  await expect(viewer.getByRole("menu").getByTestId("delete-workflow")).toHaveCount(0);
  await viewer.keyboard.press("Escape");
  await viewer.goto("/settings/credentials");
  await expect(viewer.getByTestId("settings-forbidden")).toContainText("owners and admins");
  await viewer.goto("/workflows");

  const editor = new EditorPage(viewer);
  await editor.goto(workflowId);
  await expect(viewer.getByTestId("read-only-badge")).toBeVisible();
  await expect(viewer.getByTestId("run-button")).toHaveCount(0);
  await expect(viewer.getByTestId("publish-button")).toHaveCount(0);
  await expect(viewer.getByTestId("palette")).toHaveCount(0);
  await editor.select("template_1");
  await expect(viewer.getByTestId("node-title-input")).toBeDisabled();
  await expect(viewer.getByTestId("config-panel").locator("textarea, input").last()).toBeDisabled();
  await expect(viewer.getByTestId("run-single-node")).toHaveCount(0);
  // The server refuses a change even if the page were bypassed.
  const refused = await viewer.request.put(`/api/workflows/${workflowId}`, {
    data: { draft: templateDocument(), expectedRevision: 0 },
  });
  expect(refused.status()).toBe(403);
  await viewer.goto(`/workflows/${workflowId}/runs`);
  await expect(viewer).toHaveURL(new RegExp(`/workflows/${workflowId}/runs$`));

  // An admin's role change applies on the viewer's next request.
  await row.getByTestId("member-role").selectOption("editor");
  await expect(page.getByTestId("members-message")).toContainText("is now editor");
  await editor.goto(workflowId);
  await expect(viewer.getByTestId("run-button")).toBeVisible();

  // The new member replaces the initial password, signs out, and signs in with the new one.
  await viewer.goto("/account");
  await expect(viewer.getByTestId("account-role")).toHaveText("editor");
  await viewer.locator("#current-password").fill("not-it");
  await viewer.locator("#new-password").fill("my-own-password");
  await viewer.getByTestId("change-password").click();
  await expect(viewer.getByTestId("password-error-currentPassword")).toContainText("not your current password");
  // A second session of the same member (another browser) ends with the password change.
  const otherBrowser = await browser.newContext({ storageState: await context.storageState() });
  expect((await otherBrowser.request.get(`/api/workflows/${workflowId}`)).status()).toBe(200);
  await viewer.locator("#current-password").fill("viewer-password");
  await viewer.getByTestId("change-password").click();
  await expect(viewer.getByTestId("password-changed")).toBeVisible();
  expect((await otherBrowser.request.get(`/api/workflows/${workflowId}`)).status()).toBe(401);
  await otherBrowser.close();
  // This session goes on.
  expect((await viewer.request.get(`/api/workflows/${workflowId}`)).status()).toBe(200);
  await viewer.getByTestId("sign-out").click();
  await viewer.waitForURL("**/login**");
  await viewer.getByTestId("login-email").fill(email);
  await viewer.getByTestId("login-password").fill("my-own-password");
  await viewer.getByTestId("login-submit").click();
  await expect(viewer).toHaveURL(/\/workflows$/);
  await context.close();
});
