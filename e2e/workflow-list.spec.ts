import { expect, test } from "@playwright/test";
import { runToEnd } from "./fixtures/workflows";

test("the workflow list searches and sorts, and the gallery's templates run on the demo model", async ({
  page,
  request,
}) => {
  await page.goto("/workflows");
  const rows = page.getByTestId("workflow-row");
  await expect(rows.filter({ hasText: "ReAct bet" })).toHaveCount(1);

  // Search: names and descriptions, any case; the count says how many match.
  await page.getByTestId("workflow-search").fill("react BET");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("ReAct bet");
  await expect(page.getByTestId("workflow-search-count")).toContainText("1 of");
  await page.getByTestId("workflow-search").fill("");

  // Sort by name: the rows come in alphabetical order.
  await page.getByTestId("workflow-sort").selectOption("name");
  const names = await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute("data-name") ?? ""),
  );
  expect(names).toEqual(
    [...names].sort((left, right) => left.localeCompare(right, undefined, { sensitivity: "base" })),
  );

  // The gallery: the seeded examples and at least five more; "Use" creates a workflow and opens it.
  await page.getByTestId("templates-button").click();
  const gallery = page.getByTestId("template-gallery");
  await expect(gallery.getByTestId("template-card")).toHaveCount(8);
  await gallery.locator('[data-slug="template-weather-report"]').getByTestId("use-template-card").click();
  await expect(page).toHaveURL(/\/workflows\/[^/?]+$/);
  await expect(page.locator(".react-flow__node")).toHaveCount(4);
  const workflowId = new URL(page.url()).pathname.split("/").at(-1)!;

  // It runs offline: the demo stub answers the weather tool, so the report names the city.
  const runId = await runToEnd(request, workflowId, {});
  const detail = (await (await request.get(`/api/runs/${runId}`)).json()) as { run: { outputs: { report?: string } } };
  expect(detail.run.outputs.report).toContain("Athens");
});
