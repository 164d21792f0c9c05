import { afterEach, describe, expect, it, vi } from "vitest";
import { createEditorStore } from "../store/editor-store";
import { afterCanvasShown } from "./after-canvas-shown";

function emptyStore() {
  return createEditorStore({
    workflowId: "w",
    workflowName: "Test",
    revision: 1,
    publishedVersion: null,
    document: { schemaVersion: 2, nodes: [], edges: [] },
  });
}

describe("afterCanvasShown", () => {
  afterEach(() => vi.useRealTimers());

  it("runs the task only once the canvas is shown and the browser had a moment", () => {
    vi.useFakeTimers();
    const store = emptyStore();
    const task = vi.fn();
    const deferred = afterCanvasShown(store, task, 1000);
    vi.advanceTimersByTime(5000);
    expect(task).not.toHaveBeenCalled();
    expect(deferred.pending()).toBe(true);
    store.getState().markCanvasShown();
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    expect(deferred.pending()).toBe(false);
  });

  it("runs right after a moment when the canvas is already shown, and never once cancelled", () => {
    vi.useFakeTimers();
    const store = emptyStore();
    store.getState().markCanvasShown();
    const task = vi.fn();
    afterCanvasShown(store, task, 1000);
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    afterCanvasShown(store, cancelled, 1000).cancel();
    const waiting = vi.fn();
    const other = emptyStore();
    afterCanvasShown(other, waiting, 1000).cancel();
    other.getState().markCanvasShown();
    vi.advanceTimersByTime(10);
    expect(cancelled).not.toHaveBeenCalled();
    expect(waiting).not.toHaveBeenCalled();
  });
});
