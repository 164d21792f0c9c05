import { type Browser, expect, type Page, test } from "@playwright/test";
import { createWorkflow, runToEnd, templateDocument } from "./fixtures/workflows";

/** Screenshots of the switcher and the invite page land here (viewed during review, not compared). */
const SHOTS = "test-results/workspaces";
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;
const THEMES = ["light", "dark"] as const;

/**
 * A fresh browser signed in on its own. The owner does not use the shared admin session: switching
 * workspace changes the session, and other specs rely on the admin's session staying in the
 * default workspace.
 */
async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/login?next=/workflows");
  await page.getByTestId("login-email").fill(email);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/workflows$/);
  return page;
}

async function shoot(page: Page, name: string, open?: () => Promise<void>): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await open?.();
      await page.screenshot({ path: `${SHOTS}/${name}-${size.width}-${theme}.png` });
    }
  }
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: "light" });
}

/** Picks a workspace in the header switcher by keyboard: open, type its name, Enter. */
async function switchTo(page: Page, name: string): Promise<void> {
  await page.getByTestId("workspace-switcher").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("workspace-menu")).toBeVisible();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("current-workspace")).toHaveText(name);
}

test("an owner creates a second workspace and invites by link; the new member switches and sees only that workspace", async ({
  browser,
}) => {
  const stamp = Date.now();
  const teamName = `E2E Team ${stamp}`;
  const owner = await signedIn(browser, "admin@trellis.local", "trellis-admin");
  const defaultName = (await owner.getByTestId("current-workspace").textContent()) ?? "";
  expect(defaultName).not.toBe("");

  // The switcher, open, with "Create workspace".
  await shoot(owner, "switcher", async () => {
    if (!(await owner.getByTestId("workspace-menu").isVisible())) await owner.getByTestId("workspace-switcher").click();
    await expect(owner.getByTestId("create-workspace")).toBeVisible();
  });
  await owner.getByTestId("create-workspace").click();
  const dialog = owner.getByTestId("create-workspace-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("create-workspace-submit").click();
  await expect(dialog.getByTestId("workspace-name-error")).toBeVisible();
  await owner.locator("#workspace-name").fill(teamName);
  await dialog.getByTestId("create-workspace-submit").click();
  // The page reloads into the new workspace: empty, with its name in the header.
  await expect(owner.getByTestId("current-workspace")).toHaveText(teamName);
  await expect(owner.getByTestId("workflow-list-empty")).toBeVisible();

  // Something of its own, and a run of it.
  const workflowId = await createWorkflow(owner.request, `Only in the team ${stamp}`, templateDocument());
  const runId = await runToEnd(owner.request, workflowId, { question: "hi" });

  // An invitation link for anyone, as editor.
  await owner.goto("/settings/members");
  await owner.locator("#invite-role").selectOption("editor");
  await owner.getByTestId("create-invitation").click();
  const link = await owner.getByTestId("invitation-link").inputValue();
  expect(link).toContain("/invite/");
  await expect(owner.getByTestId("invitation-row")).toHaveCount(1);

  // The invitee has no account: the invite page shows the workspace and role, and a sign-up form.
  const inviteeContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  await expect(invitee.getByTestId("invite-workspace")).toHaveText(`Join ${teamName}`);
  await expect(invitee.getByTestId("invite-role")).toHaveText("editor");
  await shoot(invitee, "invite-page");
  const email = `invitee-${stamp}@example.test`;
  await invitee.locator("#invite-name").fill("Ivy Invitee");
  await invitee.locator("#invite-email").fill(email);
  await invitee.locator("#invite-password").fill("invitee-password");
  await invitee.getByTestId("invite-create-account").click();
  await expect(invitee).toHaveURL(/\/workflows$/);
  await expect(invitee.getByTestId("current-workspace")).toHaveText(teamName);

  // The link worked once.
  const again = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await again.goto(link);
  await expect(again.getByTestId("invite-problem")).toHaveAttribute("data-code", "invitation_used");

  // The invitee makes a workspace of their own (and lands in it), then switches back by keyboard.
  await invitee.getByTestId("workspace-switcher").click();
  await invitee.getByTestId("create-workspace").click();
  await invitee.locator("#workspace-name").fill(`Ivy's own ${stamp}`);
  await invitee.getByTestId("create-workspace-submit").click();
  await expect(invitee.getByTestId("current-workspace")).toHaveText(`Ivy's own ${stamp}`);
  await expect(invitee.getByTestId("workflow-list-empty")).toBeVisible();
  await switchTo(invitee, teamName);

  // Only the team's workflows and runs; nothing of the owner's default workspace.
  await invitee.goto("/workflows");
  await expect(invitee.getByTestId("workflow-row")).toHaveCount(1);
  await expect(invitee.locator(`[data-testid="workflow-row"][data-id="${workflowId}"]`)).toBeVisible();
  await invitee.goto("/runs");
  await expect(invitee.getByTestId("run-row")).toHaveCount(1);
  await expect(invitee.locator(`[data-testid="run-row"][data-id="${runId}"]`)).toBeVisible();
  const defaultWorkflows = await owner.request.get("/api/workflows");
  expect(defaultWorkflows.ok()).toBe(true);

  // The owner sees the new member; the pending list is empty again.
  await owner.reload();
  await expect(owner.locator(`[data-testid="member-row"][data-email="${email}"]`)).toBeVisible();
  await expect(owner.getByTestId("no-invitations")).toBeVisible();

  // The owner switches back to the default workspace: the team's workflow is not there.
  await switchTo(owner, defaultName);
  await owner.goto("/workflows");
  await expect(owner.locator(`[data-testid="workflow-row"][data-id="${workflowId}"]`)).toHaveCount(0);
  expect((await owner.request.get(`/api/workflows/${workflowId}`)).status()).toBe(404);
});
