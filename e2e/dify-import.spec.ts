import path from "node:path";
import { expect, test } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";

const fixtures = path.resolve(import.meta.dirname, "../lib/interop/dify/fixtures");

test("upload a Dify file, read the report, import it, open the workflow and run it on the demo model", async ({
  page,
}) => {
  await page.goto("/workflows");
  await page.getByTestId("import-dialog-button").click();
  const dialog = page.getByTestId("import-dialog");
  await expect(dialog).toBeVisible();

  // A file with a secret and a plugin tool first: the report says what becomes of them, nothing is saved.
  await dialog.getByTestId("import-upload").setInputFiles(path.join(fixtures, "tool.yml"));
  await expect(dialog.getByTestId("import-format")).toHaveValue("dify");
  await expect(dialog.getByTestId("import-summary")).toContainText("4 nodes");
  await expect(dialog.getByTestId("import-secret")).toHaveAttribute(
    "data-name",
    "google/google_search:serpapi_api_key",
  );
  const reference = dialog.locator('[data-testid="import-reference"][data-name="google/google_search"]');
  await expect(dialog.getByTestId("import-compile-issues")).toBeVisible();
  await reference.selectOption("http_request");
  await expect(dialog.getByTestId("import-compiles")).toBeVisible();
  await expect(dialog.getByTestId("import-notes")).toContainText(
    'Mapped tool "google/google_search" to "http_request"',
  );

  // The app to keep: LLM → code → iteration → end.
  await dialog.getByTestId("import-upload").setInputFiles(path.join(fixtures, "app-llm-iteration.yml"));
  await expect(dialog.getByTestId("import-name")).toHaveValue("Outline and expand");
  await expect(dialog.getByTestId("import-summary")).toContainText("7 nodes: 4 mapped, 3 changed, 0 not supported");
  await expect(dialog.getByTestId("import-compiles")).toBeVisible();
  await expect(dialog.locator('[data-testid="import-node"][data-id="each"]')).toHaveAttribute("data-status", "mapped");
  await expect(dialog.locator('[data-testid="import-node"][data-id="eachstart"]')).toHaveAttribute(
    "data-status",
    "changed",
  );
  await expect(dialog.locator('[data-testid="import-node"][data-id="outline"]')).toContainText("default provider");
  await page.getByTestId("import-dialog").getByTestId("import-name").fill(`Dify outline ${Date.now()}`);
  await dialog.getByTestId("import-confirm").click();

  await page.waitForURL(/\/workflows\/[^/]+$/);
  const editor = new EditorPage(page);
  await expect(page.getByTestId("workflow-editor")).toBeVisible();
  await expect(editor.node("outline")).toBeVisible();
  await expect(editor.node("each")).toBeVisible();
  await editor.run({});
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await editor.fitView();
  await expect(editor.runStatus("done")).toHaveAttribute("data-status", "succeeded");
});

test("a file that is not a Dify app export is refused with the path that is wrong", async ({ page }) => {
  await page.goto("/workflows");
  await page.getByTestId("import-dialog-button").click();
  const dialog = page.getByTestId("import-dialog");
  await dialog
    .getByTestId("import-content")
    .fill("kind: app\napp: {mode: chat, name: Old chat}\nworkflow: {graph: {nodes: []}}\n");
  await dialog.getByTestId("import-check").click();
  await expect(dialog.getByTestId("import-error")).toHaveAttribute("data-path", "app.mode");
  await expect(dialog.getByTestId("import-confirm")).toBeDisabled();
});
