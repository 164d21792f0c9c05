import { expect, type Page, test } from "@playwright/test";
import { copyOfExample } from "./fixtures/examples";
import { createWorkflow } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

/*
 * Visual baselines of the editor, light and dark. Update them after an intended change with
 *   npx playwright test e2e/visual.spec.ts --update-snapshots
 * (after `npx next build`), then look at the new PNGs under e2e/visual.spec.ts-snapshots/.
 * Stable by construction: fixed viewport, no animations, no caret, the save indicator and the
 * demo banner (which depends on the server's providers) masked, the palette's collapsed state reset.
 */
test.use({ viewport: { width: 1440, height: 900 } });

const THEMES = ["light", "dark"] as const;

async function prepare(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
  await page.addInitScript(() => window.localStorage.removeItem("trellis.palette-collapsed"));
}

async function settle(page: Page): Promise<void> {
  // A fit animates for 200 ms; fonts and the React Flow measurement settle within a few frames.
  await page.waitForTimeout(600);
  await page.mouse.move(0, 0);
}

function shot(page: Page) {
  return {
    animations: "disabled" as const,
    caret: "hide" as const,
    mask: [page.getByTestId("save-state"), page.getByTestId("demo-mode-banner")],
    maxDiffPixelRatio: 0.01,
  };
}

for (const theme of THEMES) {
  test.describe(`${theme}`, () => {
    test("empty editor", async ({ page, request }) => {
      await prepare(page, theme);
      const id = await createWorkflow(request, "Visual empty", { schemaVersion: 2, nodes: [], edges: [] });
      await page.goto(`/workflows/${id}`);
      await expect(page.getByTestId("workflow-editor")).toBeVisible();
      await settle(page);
      await expect(page).toHaveScreenshot(`editor-empty-${theme}.png`, shot(page));
    });

    test("the six-node example", async ({ page, request }) => {
      await prepare(page, theme);
      const editor = new EditorPage(page);
      await editor.goto(await copyOfExample(request, "Visual example"));
      await settle(page);
      await expect(page).toHaveScreenshot(`editor-example-${theme}.png`, shot(page));
    });

    test("the example with the config panel open", async ({ page, request }) => {
      await prepare(page, theme);
      const editor = new EditorPage(page);
      await editor.goto(await copyOfExample(request, "Visual example"));
      await editor.select("planner");
      await settle(page);
      await expect(page).toHaveScreenshot(`editor-inspector-${theme}.png`, shot(page));
    });
  });
}
