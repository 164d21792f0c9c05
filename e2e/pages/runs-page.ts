import { expect, type Locator, type Page } from "@playwright/test";

/** /workflows/:id/runs: a workflow's run history. */
export class RunHistoryPage {
  constructor(readonly page: Page) {}

  /** Opens the history of a workflow. */
  async goto(workflowId: string): Promise<void> {
    await this.page.goto(`/workflows/${workflowId}/runs`);
    await expect(this.page.getByTestId("run-history")).toBeVisible();
  }

  /** Every run row. */
  get rows(): Locator {
    return this.page.getByTestId("run-row");
  }

  /** The row of one run. */
  row(runId: string): Locator {
    return this.page.locator(`[data-testid="run-row"][data-id="${runId}"]`);
  }

  /** Opens a run's page from its row. */
  async open(runId: string): Promise<void> {
    await this.row(runId).getByRole("link").click();
    await this.page.waitForURL(`**/runs/${runId}`);
  }
}

/** /runs/:runId: summary, timeline and node-run inspector of a stored run. */
export class RunDetailPage {
  constructor(readonly page: Page) {}

  /** The run detail view. */
  get detail(): Locator {
    return this.page.getByTestId("run-detail");
  }

  /** The run's status in the summary. */
  get status(): Locator {
    return this.page.getByTestId("run-status");
  }

  /** One timeline row by node id. */
  timelineRow(nodeId: string): Locator {
    return this.page.locator(`[data-testid="timeline-row"][data-node-id="${nodeId}"]`);
  }

  /** The inspector of the selected node run. */
  get inspector(): Locator {
    return this.page.getByTestId("node-run-inspector");
  }
}
