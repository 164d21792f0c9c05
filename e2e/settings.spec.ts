import { expect, test } from "@playwright/test";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../lib/llm/fake-server";

const PETS_SPEC = `openapi: 3.0.3
info: { title: Pets, version: "1" }
servers: [{ url: "https://pets.example.com/v1" }]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
      responses: { "200": { description: ok } }
    post:
      operationId: createPet
      summary: Create a pet
      responses: { "201": { description: created } }
`;

test.describe("settings", () => {
  let fake: FakeOpenAIServer;
  test.beforeAll(async () => {
    // A fixed port the server's TRELLIS_HTTP_ALLOWLIST names (playwright.config.ts): the provider
    // Test button goes through the SSRF guard, which refuses loopback otherwise.
    const port = Number(process.env.TRELLIS_E2E_PORT ?? 3210) + 11;
    fake = await startFakeOpenAIServer({ models: ["e2e-small", "e2e-large"], port });
  });
  test.afterAll(async () => fake?.close());

  test("add an OpenAPI tool set by pasting a spec, see its tools, refuse an invalid one, delete it", async ({
    page,
  }) => {
    const name = `Pets ${Date.now()}`;
    await page.goto("/settings");
    await page.getByTestId("settings-tools-link").click();
    await expect(page).toHaveURL(/\/settings\/tools$/);

    await page.getByTestId("add-openapi").click();
    const dialog = page.getByTestId("openapi-dialog");
    await dialog.getByTestId("source-name").fill(name);
    await dialog.getByTestId("spec-input").fill(PETS_SPEC);
    await dialog.getByTestId("save-source").click();
    await expect(dialog).toBeHidden();

    const source = page.locator(`[data-testid="tool-source"][data-name="${name}"]`);
    await expect(source.getByTestId("source-status")).toHaveText("ready");
    await expect(source.getByTestId("source-tool")).toHaveCount(2);
    await expect(source.locator('[data-testid="source-tool"][data-name="listPets"]')).toContainText("List pets");
    await expect(source.locator('[data-testid="source-tool"][data-name="createPet"]')).toContainText("POST");

    // Mark listPets read-only: the picker's catalog follows.
    // A YAML file loads into the editor and names the source after the file.
    await page.getByTestId("add-openapi").click();
    await dialog.getByTestId("spec-file").setInputFiles({
      name: "petstore.yaml",
      mimeType: "application/yaml",
      buffer: Buffer.from(PETS_SPEC),
    });
    await expect(dialog.getByTestId("spec-input")).toHaveValue(PETS_SPEC);
    await expect(dialog.getByTestId("source-name")).toHaveValue("petstore");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await source.locator('[data-testid="source-tool"][data-name="listPets"]').getByTestId("tool-read-only").check();
    await expect(
      source.locator('[data-testid="source-tool"][data-name="listPets"]').getByTestId("tool-read-only"),
    ).toBeChecked();
    const catalog = await (await page.request.get("/api/tools")).json();
    expect(catalog.tools).toContainEqual(
      expect.objectContaining({
        name: "listPets",
        readOnly: true,
        source: expect.objectContaining({ kind: "openapi", label: name }),
      }),
    );

    // An invalid document: the error names the location and nothing is saved.
    await page.getByTestId("add-openapi").click();
    await dialog.getByTestId("source-name").fill(`${name} broken`);
    await dialog.getByTestId("spec-input").fill(PETS_SPEC.replace("- { name: limit, in: query", "- { in: query"));
    await dialog.getByTestId("save-source").click();
    const error = dialog.getByTestId("source-error");
    await expect(error).toHaveAttribute("data-location", "paths./pets.get.parameters[0]");
    await expect(error).toContainText("missing name");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.locator(`[data-testid="tool-source"][data-name="${name} broken"]`)).toHaveCount(0);

    await source.getByTestId("delete-source").click();
    await page.getByTestId("confirm-delete-source").click();
    await expect(source).toHaveCount(0);
  });

  test("add, test and remove a model provider; demo mode is stated", async ({ page }) => {
    const name = `e2e-${Date.now()}`;
    await page.goto("/settings/providers");
    await expect(page.getByTestId("provider-mode-banner")).toHaveAttribute("data-demo", "true");
    await expect(page.getByTestId("provider-mode-banner")).toContainText("never used");

    await page.getByTestId("add-provider").click();
    const dialog = page.getByTestId("provider-dialog");
    await dialog.getByTestId("provider-name").fill(name);
    await dialog.getByTestId("provider-base-url").fill(fake.url);
    await dialog.getByTestId("provider-api-key").fill("sk-e2e-secret");
    await dialog.getByTestId("test-provider").click();
    await expect(dialog.getByTestId("provider-test-ok")).toContainText("2 models available");
    await dialog.getByRole("button", { name: "Use this list" }).click();
    await expect(dialog.getByTestId("provider-models")).toHaveValue("e2e-large\ne2e-small");
    await dialog.getByTestId("save-provider").click();
    await expect(dialog).toBeHidden();

    const row = page.locator(`[data-testid="provider-row"][data-name="${name}"]`);
    await expect(row).toContainText("stored");
    await expect(row).toContainText("e2e-small");
    await expect(page.locator("body")).not.toContainText("sk-e2e-secret");
    const models = await (await page.request.get("/api/models")).json();
    expect(models.models).toContainEqual(
      expect.objectContaining({ provider: name, model: "e2e-small", isDemo: false }),
    );

    // Editing keeps the stored key without showing it.
    await row.getByTestId("edit-provider").click();
    await expect(dialog.getByTestId("provider-api-key")).toHaveValue("");
    await expect(dialog.getByTestId("provider-api-key")).toHaveAttribute("placeholder", /stored/);
    await dialog.getByTestId("provider-models").fill("e2e-small");
    await dialog.getByTestId("save-provider").click();
    await expect(dialog).toBeHidden();
    await expect(row).not.toContainText("e2e-large");
    await expect(row).toContainText("stored");

    await row.getByTestId("delete-provider").click();
    await page.getByTestId("confirm-delete-provider").click();
    await expect(row).toHaveCount(0);
  });
});
