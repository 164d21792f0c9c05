import { expect, type Page, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";
import { createApiKey } from "./support/api-setup";

async function publish(page: Page, note: string, version: number): Promise<void> {
  await page.getByTestId("publish-button").click();
  await page.getByTestId("publish-note").fill(note);
  await page.getByTestId("publish-submit").click();
  await expect(page.getByTestId("publish-dialog")).toBeHidden();
  await expect(page.getByTestId("published-version")).toHaveAttribute("data-version", String(version));
}
const modes = [
  [1024, "light"],
  [1024, "dark"],
  [1440, "light"],
  [1440, "dark"],
] as const;
async function shoot(page: Page, name: string) {
  for (const [width, scheme] of modes) {
    await page.setViewportSize({ width, height: 860 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(250);
    await page.screenshot({ path: `/tmp/shots/${name}-${width}-${scheme}.png` });
  }
}
test("shots", async ({ page, request }) => {
  test.setTimeout(180_000);
  const name = `Shots ${Date.now()}`;
  const workflowId = await createWorkflow(request, name, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await publish(page, "First greeting", 1);
  await editor.select("template_1");
  await editor.field("template").fill("Hi {{start.question}}");
  await editor.waitSaved();
  await publish(page, "Friendlier greeting with a longer note that explains what changed and why", 2);
  await page.getByTestId("versions-button").click();
  const dialog = page.getByTestId("versions-dialog");
  await dialog.getByTestId("diff-compare").click();
  await expect(dialog.getByTestId("diff-line")).toHaveCount(2);
  await shoot(page, "versions");
  await dialog.getByTestId("version-row").nth(1).getByTestId("version-view").click();
  await expect(page.getByTestId("version-banner")).toBeVisible();
  await shoot(page, "readonly");
  await createApiKey(request, `shots ${Date.now()}`, ["run", "read-runs"]);
  await page.goto("/settings/api-keys");
  await page.waitForLoadState("networkidle");
  await shoot(page, "keys");
  await page.goto("/docs/api");
  await page.waitForLoadState("networkidle");
  await shoot(page, "docs");
});
