import { expect, type Locator, type Page } from "@playwright/test";

/** The /workflows list. */
export class WorkflowsPage {
  constructor(readonly page: Page) {}

  /** Opens the list. */
  async goto(): Promise<void> {
    await this.page.goto("/workflows");
  }

  /** The row of a workflow by name. */
  row(name: string): Locator {
    return this.page.locator(`[data-testid="workflow-row"][data-name="${name}"]`);
  }

  /**
   * Runs one of a row's secondary actions (tags, duplicate, export, delete): they live in the
   * row's "More actions" menu, whose items render outside the row.
   */
  async rowAction(row: Locator, testId: string): Promise<void> {
    await row.getByTestId("workflow-actions").click();
    await this.page.getByRole("menu").getByTestId(testId).click();
  }

  /** Creates a workflow through the dialog and waits for the editor; returns its id. */
  async create(name: string): Promise<string> {
    await this.page.getByTestId("new-workflow").click();
    await this.page.getByTestId("new-workflow-name").fill(name);
    await this.page.getByTestId("create-workflow").click();
    await this.page.waitForURL(/\/workflows\/[^/]+$/);
    await expect(this.page.getByTestId("workflow-editor")).toBeVisible();
    return this.page.url().split("/").pop()!;
  }
}
