import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { ZOOMED_OUT_CARD } from "../nodes/card-size";
import { createEditorStore } from "../store/editor-store";
import type { CanvasNode } from "../store/types";
import { zoomedOutFitZoom, zoomedOutSizeChanges } from "./use-graph-handoff";
import { DETAIL_ZOOM } from "./use-zoomed-out";

/** The editor's canvas at 1440 × 900 with the palette open. */
const PANE = { width: 1200, height: 797, minZoom: 0.05, maxZoom: 2 };

/** `count` template nodes in rows of 25, 280 × 140 apart (the canvas benchmark's grid). */
function grid(count: number): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: Array.from({ length: count }, (_, index) => ({
      id: `template_${index}`,
      type: "template",
      position: { x: (index % 25) * 280, y: Math.floor(index / 25) * 140 },
      data: { title: `Template ${index}`, errorStrategy: "fail-run", template: "Hi" },
    })),
    edges: [],
  };
}

function storeOf(document: WorkflowDocument) {
  return createEditorStore({ workflowId: "w", workflowName: "Test", revision: 1, publishedVersion: null, document });
}

describe("zoomedOutSizeChanges", () => {
  it("sizes every card of a workflow that fits below the detail zoom", () => {
    const nodes = storeOf(grid(1000)).getState().nodes;
    expect(zoomedOutFitZoom(nodes, PANE)).toBeLessThan(DETAIL_ZOOM);
    const changes = zoomedOutSizeChanges(nodes, PANE);
    expect(changes).toHaveLength(1000);
    expect(changes?.[0]).toEqual({
      id: "template_0",
      type: "dimensions",
      dimensions: { width: ZOOMED_OUT_CARD.width, height: ZOOMED_OUT_CARD.height },
    });
  });

  it("leaves a workflow fitted above the detail zoom to be measured", () => {
    const nodes = storeOf(grid(3)).getState().nodes;
    expect(zoomedOutFitZoom(nodes, PANE)).toBeGreaterThanOrEqual(DETAIL_ZOOM);
    expect(zoomedOutSizeChanges(nodes, PANE)).toBeNull();
    expect(zoomedOutSizeChanges([], PANE)).toBeNull();
    expect(zoomedOutSizeChanges(storeOf(grid(1000)).getState().nodes, { ...PANE, width: 0 })).toBeNull();
  });

  it("fits the same way React Flow does: a wider pane zooms in, and the zoom stays within minZoom", () => {
    const nodes = storeOf(grid(1000)).getState().nodes;
    expect(zoomedOutFitZoom(nodes, { ...PANE, width: 2400, height: 1600 })).toBeGreaterThan(
      zoomedOutFitZoom(nodes, PANE),
    );
    expect(zoomedOutFitZoom(nodes, { ...PANE, width: 100, height: 100 })).toBe(PANE.minZoom);
  });

  it("keeps measured sizes and the set sizes of containers and notes", () => {
    const document = grid(200);
    document.nodes.push({
      id: "loop",
      type: "iteration",
      position: { x: 0, y: 1200 },
      width: 500,
      height: 300,
      data: { title: "Loop" },
    });
    const nodes: CanvasNode[] = storeOf(document).getState().nodes;
    nodes[0] = { ...nodes[0], measured: { width: 220, height: 90 } };
    const changes = zoomedOutSizeChanges(nodes, PANE) ?? [];
    expect(changes.map((change) => change.type === "dimensions" && change.id)).not.toContain("template_0");
    expect(changes.find((change) => change.type === "dimensions" && change.id === "loop")).toMatchObject({
      dimensions: { width: 500, height: 300 },
    });
  });

  it("is UI state in the editor store: no undo step and nothing to save", () => {
    const store = storeOf(grid(1000));
    const changes = zoomedOutSizeChanges(store.getState().nodes, PANE) ?? [];
    store.getState().onNodesChange(changes);
    const state = store.getState();
    expect(state.nodes[0].measured).toEqual({ width: ZOOMED_OUT_CARD.width, height: ZOOMED_OUT_CARD.height });
    expect(state.changeCount).toBe(0);
    expect(state.past).toHaveLength(0);
  });
});
