import { expect, type Locator, type Page } from "@playwright/test";

/** The workflow editor at /workflows/:id. */
export class EditorPage {
  constructor(readonly page: Page) {}

  /** Opens a workflow's editor. */
  async goto(id: string): Promise<void> {
    await this.page.goto(`/workflows/${id}`);
    await expect(this.page.getByTestId("workflow-editor")).toBeVisible();
    await expect(this.page.locator(".react-flow__node").first()).toBeVisible();
  }

  /** The canvas surface. */
  get canvas(): Locator {
    return this.page.getByTestId("canvas");
  }

  /** A canvas node by id (React Flow puts the id in `data-id`). */
  node(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }

  /** Drags a palette item onto the canvas at a point relative to `target` (the canvas by default). */
  async dragFromPalette(type: string, position: { x: number; y: number }, target?: Locator): Promise<void> {
    await this.page.getByTestId(`palette-item-${type}`).dragTo(target ?? this.canvas, { targetPosition: position });
  }

  /**
   * Waits until the viewport stops moving: the editor pans to keep a newly selected node clear of
   * the config panel, and a drag measured mid-pan would aim at where a handle used to be.
   */
  async waitForSettledViewport(): Promise<void> {
    const viewport = this.page.locator(".react-flow__viewport");
    let previous = await viewport.getAttribute("style");
    for (let check = 0; check < 30; check++) {
      await this.page.waitForTimeout(100);
      const current = await viewport.getAttribute("style");
      if (current === previous) return;
      previous = current;
    }
  }

  /**
   * Connects a source handle to a node's input by dragging, and waits for the new edge. A drop
   * that misses because the canvas moved under the synthetic drag (it pans under a connection
   * dragged near its edge) is dragged again, at most twice more. With `refused`, the editor is
   * expected to refuse the connection: one drag, no wait.
   */
  async connect(
    sourceId: string,
    targetId: string,
    sourceHandle = "out",
    { refused = false }: { refused?: boolean } = {},
  ): Promise<void> {
    const before = await this.edges.count();
    for (let attempt = 1; ; attempt++) {
      await this.dragConnection(sourceId, targetId, sourceHandle);
      if (refused) return;
      try {
        await expect(this.edges).toHaveCount(before + 1, { timeout: 3_000 });
        return;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  }

  private async dragConnection(sourceId: string, targetId: string, sourceHandle: string): Promise<void> {
    await this.waitForSettledViewport();
    // The viewport may have moved since the nodes were placed (the editor pans to keep a selected
    // node clear of the config panel).
    await this.reveal(sourceId, targetId);
    const source = this.node(sourceId).locator(`.react-flow__handle.source[data-handleid="${sourceHandle}"]`);
    const target = this.node(targetId).locator(".react-flow__handle.target");
    const from = (await source.boundingBox())!;
    const to = (await target.boundingBox())!;
    // Several intermediate moves: React Flow tracks the connection line on pointer moves.
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /** Fits the whole graph in view (off-screen nodes are not rendered: onlyRenderVisibleElements). */
  async fitView(): Promise<void> {
    await this.page.locator(".react-flow__controls-fitview").click();
  }

  /**
   * Fits the view when any of these nodes is not wholly inside the canvas, then lets it settle. Off
   * screen a node is not rendered (onlyRenderVisibleElements); near an edge it can be rendered but
   * lie under the palette or the config panel, which then take the click or the drop.
   */
  async reveal(...ids: string[]): Promise<void> {
    for (const id of ids) {
      if (await this.insideCanvas(id)) continue;
      await this.fitView();
      await this.waitForSettledViewport();
      return;
    }
  }

  /** Whether the node is rendered and its whole box lies inside the canvas's box. */
  private async insideCanvas(id: string): Promise<boolean> {
    if (!(await this.node(id).isVisible())) return false;
    const [node, canvas] = await Promise.all([
      this.node(id).boundingBox(),
      this.page.locator(".react-flow").first().boundingBox(),
    ]);
    if (!node || !canvas) return false;
    return (
      node.x >= canvas.x &&
      node.y >= canvas.y &&
      node.x + node.width <= canvas.x + canvas.width &&
      node.y + node.height <= canvas.y + canvas.height
    );
  }

  /** Selects a node by clicking its title, fitting the view first when it is off-screen. */
  async select(id: string): Promise<void> {
    await this.reveal(id);
    await this.node(id).getByTestId("node-title").click();
    await expect(this.page.getByTestId("config-panel")).toHaveAttribute("data-node-id", id);
  }

  /** A config field of the selected node by its path, e.g. `goal` or `outputSelector`. */
  field(path: string): Locator {
    return this.page.getByTestId("config-panel").getByTestId(`field-${path}`);
  }

  /** The edges currently drawn. */
  get edges(): Locator {
    return this.page.locator(".react-flow__edge");
  }

  /** Waits until autosave has stored everything. */
  async waitSaved(): Promise<void> {
    await expect(this.page.getByTestId("save-state")).toHaveAttribute("data-state", "saved", { timeout: 15_000 });
  }

  /** The live run status badge of a node. */
  runStatus(id: string): Locator {
    return this.node(id).getByTestId("node-run-status");
  }

  /** Starts a run with the given inputs through the run dialog. */
  async run(inputs: Record<string, string>): Promise<void> {
    await this.page.getByTestId("run-button").click();
    for (const [name, value] of Object.entries(inputs)) {
      await this.page.getByTestId(`run-input-${name}`).fill(value);
    }
    await this.page.getByTestId("run-submit").click();
    await expect(this.page.getByTestId("run-panel")).toBeVisible({ timeout: 30_000 });
  }

  /** The dialog shown when another tab saved first. */
  get conflictDialog(): Locator {
    return this.page.getByTestId("conflict-dialog");
  }

  /** The keyboard shortcuts dialog. */
  get shortcutsDialog(): Locator {
    return this.page.getByTestId("shortcuts-dialog");
  }

  /**
   * The autocomplete list of a prompt field: CodeMirror's completion tooltip for multi-line
   * prompts, the textarea's own list for one-line template fields.
   */
  get variableAutocomplete(): Locator {
    return this.page.locator('.cm-tooltip-autocomplete, [data-testid="variable-autocomplete"]');
  }

  /** Presses a key with the focus on the canvas (shortcuts are ignored while typing in a field). */
  async pressOnCanvas(key: string): Promise<void> {
    await this.canvas.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
    await this.page.keyboard.press(key);
  }
}
