/**
 * What the canvas benchmark (`canvas.bench.ts`) and its profiler (`canvas-profile.ts`) share:
 * the benchmark workflow and the point where a load counts as done.
 */
import type { Page } from "@playwright/test";
import { CANVAS_LOAD_MARKS } from "../components/canvas/load-marks";

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

/** Milestones of the editor load in the page, ms since navigation start (null when missing). */
export interface LoadBreakdown {
  /** First byte of the document. */
  ttfb_ms: number | null;
  /** The document parsed and its scripts run (DOMContentLoaded ended). */
  dom_content_loaded_ms: number | null;
  /** The editor hydrated and React Flow mounted (CANVAS_LOAD_MARKS.mounted). */
  canvas_mounted_ms: number | null;
  /** The nodes in the DOM, before their first style, layout and paint (…nodesRendered). */
  nodes_rendered_ms: number | null;
  /** The frame with the nodes painted (…shown). */
  nodes_shown_ms: number | null;
}

/** Reads the load's milestones (Navigation Timing and the editor's CANVAS_LOAD_MARKS) from the page. */
export function loadBreakdown(page: Page): Promise<LoadBreakdown> {
  return page.evaluate((marks) => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const round = (value: number | undefined) => (value === undefined || value <= 0 ? null : Math.round(value));
    const mark = (name: string) => round(performance.getEntriesByName(name, "mark")[0]?.startTime);
    return {
      ttfb_ms: round(navigation?.responseStart),
      dom_content_loaded_ms: round(navigation?.domContentLoadedEventEnd),
      canvas_mounted_ms: mark(marks.mounted),
      nodes_rendered_ms: mark(marks.nodesRendered),
      nodes_shown_ms: mark(marks.shown),
    };
  }, CANVAS_LOAD_MARKS);
}
