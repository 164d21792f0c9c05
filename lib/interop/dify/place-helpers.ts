import type { WorkflowNode } from "../../workflow/document";

/** The box a node is assumed to take when it has no size (about a Trellis card). */
const DEFAULT_WIDTH = 260;
const DEFAULT_HEIGHT = 110;
/** Space kept around a helper, and the step it moves by. */
const GAP = 24;
/** How many steps up, then down, a helper may move before it stays where its mapper put it. */
const MAX_STEPS = 12;

function overlaps(a: WorkflowNode, b: WorkflowNode): boolean {
  const aWidth = a.width ?? DEFAULT_WIDTH;
  const aHeight = a.height ?? DEFAULT_HEIGHT;
  const bWidth = b.width ?? DEFAULT_WIDTH;
  const bHeight = b.height ?? DEFAULT_HEIGHT;
  return (
    a.position.x < b.position.x + bWidth + GAP &&
    b.position.x < a.position.x + aWidth + GAP &&
    a.position.y < b.position.y + bHeight + GAP &&
    b.position.y < a.position.y + aHeight + GAP
  );
}

/**
 * Moves the nodes an import added (a prompt renderer, an action router) off the nodes of the
 * same scope they would cover: from where their mapper put them, the nearest free spot straight
 * up or down (up first, at equal distance). Dify's own nodes keep their positions; a helper that
 * finds no free spot within a few steps stays put.
 */
export function placeHelpers(nodes: WorkflowNode[], helperIds: ReadonlySet<string>): void {
  for (const helper of nodes) {
    if (!helperIds.has(helper.id)) continue;
    const neighbours = nodes.filter((node) => node !== helper && node.parentId === helper.parentId);
    const free = (y: number) =>
      !neighbours.some((node) => overlaps({ ...helper, position: { x: helper.position.x, y } }, node));
    if (free(helper.position.y)) continue;
    const step = (helper.height ?? DEFAULT_HEIGHT) + GAP;
    for (let distance = 1; distance <= MAX_STEPS; distance++) {
      const y = [helper.position.y - distance * step, helper.position.y + distance * step].find(free);
      if (y !== undefined) {
        helper.position = { x: helper.position.x, y };
        break;
      }
    }
  }
}
