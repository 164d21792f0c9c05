import { expect, test } from "@playwright/test";
import { createWorkflow, templateDocument } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

test("the API panel edits the slug: checked as typed, a taken one refused on the field, a new one used by the examples", async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const takenId = await createWorkflow(request, `E2E slug taken ${stamp}`, templateDocument());
  const taken = ((await (await request.get(`/api/workflows/${takenId}`)).json()) as { workflow: { slug: string } })
    .workflow.slug;
  const workflowId = await createWorkflow(request, `E2E slug ${stamp}`, templateDocument());
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("publish-button").click();
  const field = page.getByTestId("workflow-slug");
  await expect(field).toHaveValue(`e2e-slug-${stamp}`);

  // In words, as typed: uppercase and spaces are not a slug.
  await field.fill("Not A Slug");
  await expect(page.getByTestId("workflow-slug-error")).toContainText("lowercase letters, digits and single dashes");
  await expect(page.getByTestId("workflow-slug-save")).toBeDisabled();

  // Another workflow's slug: the server's 409 is shown on the field.
  await field.fill(taken);
  await page.getByTestId("workflow-slug-save").click();
  await expect(page.getByTestId("workflow-slug-error")).toContainText("uses this slug");
  await expect(field).toHaveAttribute("aria-invalid", "true");

  // A free one is saved, and the examples call it.
  const fresh = `support-desk-${stamp}`;
  await field.fill(fresh);
  await field.press("Enter");
  await expect(page.getByText("Slug changed")).toBeVisible();
  await expect(page.getByTestId("api-example-curl")).toContainText(`/api/v1/workflows/${fresh}/run`);
  const stored = ((await (await request.get(`/api/workflows/${workflowId}`)).json()) as { workflow: { slug: string } })
    .workflow.slug;
  expect(stored).toBe(fresh);
});
