/**
 * What the canvas benchmark (`canvas.bench.ts`) and its profiler (`canvas-profile.ts`) share:
 * the benchmark workflow and the point where a load counts as done.
 */
import type { Page } from "@playwright/test";

/** Columns of the benchmark grid. */
const COLUMNS = 25;

/** A start node, `count - 2` template nodes and an end node in a grid, chained row by row. */
export function buildDocument(count: number) {
  const nodes = Array.from({ length: count }, (_, index) => {
    const type = index === 0 ? "start" : index === count - 1 ? "end" : "template";
    const id = type === "template" ? `template_${index}` : type;
    const data =
      type === "start"
        ? { title: "Start", errorStrategy: "fail-run", inputs: [{ name: "question", type: "string", required: false }] }
        : type === "end"
          ? { title: "End", errorStrategy: "fail-run", outputs: [] }
          : { title: `Template ${index}`, errorStrategy: "fail-run", template: `Step ${index}: {{start.question}}` };
    return {
      id,
      type,
      position: { x: (index % COLUMNS) * 280, y: Math.floor(index / COLUMNS) * 140 },
      data,
    };
  });
  const edges = nodes
    .slice(1)
    .map((node, index) => ({ id: `edge_${index}`, source: nodes[index].id, target: node.id }));
  return { schemaVersion: 2, nodes, edges };
}

/**
 * Waits, in a page that is navigating to the editor, until every node is rendered, the view is
 * fitted and a frame painted; resolves with `performance.now()` then (ms since navigation start).
 */
export function waitForLoaded(page: Page, count: number): Promise<number> {
  return page.evaluate(
    (expected) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const rendered = document.querySelectorAll(".react-flow__node").length;
          const viewport = document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform ?? "";
          const fitted = viewport !== "" && !viewport.includes("scale(1)");
          if (rendered >= expected && fitted) requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(check);
        };
        check();
      }),
    count,
  );
}
