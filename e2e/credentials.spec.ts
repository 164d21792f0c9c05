import { expect, test } from "@playwright/test";
import { createWorkflow, savedDraft } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

const SECRET = "e2e-secret-value-7f3a";

/** start → http_1 (GET the demo stub's /health) → end. */
function httpDocument(url: string) {
  return {
    schemaVersion: 2,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", errorStrategy: "fail-run", inputs: [] },
      },
      {
        id: "http_1",
        type: "http",
        position: { x: 300, y: 0 },
        data: { title: "Call API", errorStrategy: "fail-run", method: "GET", url },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 0 },
        data: { title: "End", errorStrategy: "fail-run", outputs: [{ name: "status", value: "{{http_1.status}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "http_1" },
      { id: "e2", source: "http_1", target: "end" },
    ],
  };
}

test("an HTTP credential is added in settings, picked in an HTTP node, sent with the request, and never shown", async ({
  page,
  request,
}) => {
  const name = `token-${Date.now()}`;
  await page.goto("/settings/credentials");
  await page.locator("#credential-name").fill(name);
  await page.locator("#credential-type").selectOption("header");
  await page.locator("#credential-secret").fill(SECRET);
  await page.getByTestId("add-credential").click();
  // The header name is missing: the form says so at that field and keeps what was typed.
  await expect(page.getByTestId("credential-error-parameter")).toBeVisible();
  await expect(page.locator("#credential-name")).toHaveValue(name);
  await page.locator("#credential-parameter").fill("X-Api-Token");
  await page.getByTestId("add-credential").click();
  await expect(page.locator(`[data-testid="credential-row"][data-name="${name}"]`)).toContainText("X-Api-Token");
  await page.reload();
  expect(await page.content()).not.toContain(SECRET);

  const stubPort = Number(new URL(test.info().project.use.baseURL!).port) + 10;
  const workflowId = await createWorkflow(
    request,
    `E2E credential ${Date.now()}`,
    httpDocument(`http://127.0.0.1:${stubPort}/health`),
  );
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("http_1");
  await page.getByTestId("credential-select").selectOption(name);
  await editor.waitSaved();
  const saved = await savedDraft(request, workflowId);
  expect(saved.nodes.find((node) => node.id === "http_1")?.data.credential).toBe(name);

  await editor.run({});
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await page.locator('[data-testid="timeline-row"][data-node-id="http_1"]').click();
  const inspector = page.getByTestId("node-run-inspector");
  await expect(inspector.getByTestId("process-http-auth")).toHaveText(
    `Authentication: credential "${name}": header X-Api-Token: ••••`,
  );
  await expect(inspector).not.toContainText(SECRET);
});
