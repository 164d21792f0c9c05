/**
 * User Timing marks of an editor load (`performance.mark`), in order. `npm run bench:canvas`
 * reads them to break its load time down; they also show in a browser's performance panel.
 */
export const CANVAS_LOAD_MARKS = {
  /** The editor has hydrated and React Flow has mounted: the canvas is about to get the graph. */
  mounted: "trellis:canvas-mounted",
  /** The nodes are in the DOM: the frame that styles, lays out, measures and paints them starts. */
  nodesRendered: "trellis:canvas-nodes-rendered",
  /** That frame is painted: the nodes are on screen (`canvasShown`). */
  shown: "trellis:canvas-shown",
} as const;

/** Records one mark of CANVAS_LOAD_MARKS (no-op where User Timing is missing). */
export function markCanvasLoad(name: (typeof CANVAS_LOAD_MARKS)[keyof typeof CANVAS_LOAD_MARKS]): void {
  if (typeof performance !== "undefined" && typeof performance.mark === "function") performance.mark(name);
}
