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
  const stubPort = Number(new URL(test.info().project.use.baseURL!).port) + 10;
  await page.goto("/settings/credentials");
  await page.locator("#credential-name").fill(name);
  await page.locator("#credential-type").selectOption("header");
  await page.locator("#credential-secret").fill(SECRET);
  // The credential may only be sent to the demo stub.
  await page.locator("#credential-allowedHosts").fill(`127.0.0.1:${stubPort}`);
  await page.getByTestId("add-credential").click();
  // The header name is missing: the form says so at that field and keeps what was typed.
  await expect(page.getByTestId("credential-error-parameter")).toBeVisible();
  await expect(page.locator("#credential-name")).toHaveValue(name);
  await page.locator("#credential-parameter").fill("X-Api-Token");
  await page.getByTestId("add-credential").click();
  await expect(page.locator(`[data-testid="credential-row"][data-name="${name}"]`)).toContainText("X-Api-Token");
  await expect(
    page.locator(`[data-testid="credential-row"][data-name="${name}"] [data-testid="credential-hosts"]`),
  ).toContainText(`127.0.0.1:${stubPort}`);
  await page.reload();
  expect(await page.content()).not.toContain(SECRET);

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

  // Bound elsewhere, the same node is refused before anything is sent.
  await page.goto("/settings/credentials");
  const row = page.locator(`[data-testid="credential-row"][data-name="${name}"]`);
  await row.getByTestId("edit-credential-hosts").click();
  await row.getByTestId("credential-hosts-input").fill("api.example.com");
  await row.getByTestId("save-credential-hosts").click();
  await expect(row.getByTestId("credential-hosts")).toContainText("api.example.com");
  await editor.goto(workflowId);
  await editor.run({});
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(page.getByText("credential_host_not_allowed").first()).toBeVisible();
});
