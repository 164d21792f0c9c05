import type { CanvasNode } from "../store/types";
import { nodeViewOf } from "./use-node-view";

/**
 * Geometry of a node card below DETAIL_ZOOM (`.canvas-zoomed-out` in globals.css, node-card.tsx),
 * in CSS pixels as React Flow measures them (`offsetWidth`/`offsetHeight`). Zoomed out a card is
 * its title row and its port rows only, and the title row is as tall as the 24 px icon chip
 * whatever the font (the title's line box is 20 px there), so the size follows from the port count.
 */
export const ZOOMED_OUT_CARD = {
  /** `w-[220px]`, border included. */
  width: 220,
  /** 1 px borders, 10 px padding top and bottom, the 24 px title row. */
  height: 46,
  /** Above the port rows of a multi-port card: `mt-2 border-t pt-0.5`. */
  portsTop: 11,
  /** One port row: `h-[18px]`. */
  portRow: 18,
} as const;

/**
 * The size a node has on a zoomed-out canvas: its set size for containers and notes, else the
 * card's from ZOOMED_OUT_CARD. Exact for a card without issues or run status (what a workflow
 * shows when it opens: both come later), so the canvas can lay out and fit the first render
 * without measuring first; React Flow still measures, and a different size is a normal resize.
 */
export function zoomedOutSize(node: CanvasNode): { width: number; height: number } {
  if (node.width !== undefined && node.height !== undefined) return { width: node.width, height: node.height };
  const ports = nodeViewOf(node.type, node.data).ports.length;
  const portRows = ports > 1 ? ZOOMED_OUT_CARD.portsTop + ports * ZOOMED_OUT_CARD.portRow : 0;
  return { width: ZOOMED_OUT_CARD.width, height: ZOOMED_OUT_CARD.height + portRows };
}
