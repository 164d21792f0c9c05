import type { StateCreator } from "zustand";
import { closureOfOpenNodeRuns, statusOfNodeError } from "@/lib/runs/node-run-reducer";
import type { RunEvent } from "@/lib/runs/run-events";
import type { EditorState, NodeRunState, RunSlice } from "./types";

function tokensOf(usage: { inputTokens: number; outputTokens: number } | undefined): number {
  return usage ? usage.inputTokens + usage.outputTokens : 0;
}

/** The state of a node that starts (or waits) now, keeping what earlier attempts or items counted. */
function opened(previous: NodeRunState | undefined, status: NodeRunState["status"], at: number): NodeRunState {
  return { status, startedAt: previous?.startedAt ?? at, tokens: previous?.tokens ?? 0 };
}

/**
 * Folds one event into the per-node states (the latest attempt or item of each node), with the
 * status rules of the NodeRun reducer (lib/runs), so a badge says what the timeline and the
 * stored rows say. Only the entry of the event's node gets a new object, so only that node's
 * canvas component re-renders.
 */
function nextNodeStates(states: Record<string, NodeRunState>, event: RunEvent): Record<string, NodeRunState> {
  switch (event.type) {
    case "run-start":
      return {};
    case "node-start": {
      const previous = states[event.nodeId];
      return {
        ...states,
        [event.nodeId]: {
          ...opened(previous, "running", event.at),
          itemsDone: previous?.itemsDone,
          itemCount: previous?.itemCount,
        },
      };
    }
    case "node-end":
    case "node-error": {
      const previous = states[event.nodeId];
      const startedAt = previous?.startedAt ?? event.at - event.durationMs;
      const insideIteration = event.iterationPath.length > 0;
      return {
        ...states,
        [event.nodeId]: {
          status: event.type === "node-end" ? event.status : statusOfNodeError(event.error.code),
          startedAt,
          // Body nodes run once per item: show the wall-clock span across items.
          durationMs: insideIteration ? event.at - startedAt : event.durationMs,
          tokens: (previous?.tokens ?? 0) + tokensOf(event.usage),
          itemsDone: insideIteration ? (previous?.itemsDone ?? 0) + 1 : previous?.itemsDone,
          itemCount: previous?.itemCount,
        },
      };
    }
    case "iteration-start": {
      const previous = states[event.nodeId];
      return {
        ...states,
        [event.nodeId]: { ...opened(previous, "running", event.at), itemCount: event.itemCount, itemsDone: 0 },
      };
    }
    case "iteration-item-end": {
      const previous = states[event.nodeId];
      if (!previous) return states;
      return { ...states, [event.nodeId]: { ...previous, itemsDone: (previous.itemsDone ?? 0) + 1 } };
    }
    case "run-waiting": {
      const previous = states[event.nodeId];
      return { ...states, [event.nodeId]: opened(previous, "waiting", event.at) };
    }
    case "run-end": {
      // Nodes still open when the run stops end as their rows do: cancelled, or failed with the
      // run's code (a crash). A node between two attempts has no open row but ends the same way.
      const closed = closureOfOpenNodeRuns(event.status, event.error).status;
      let changed = false;
      const next = { ...states };
      for (const [nodeId, state] of Object.entries(states)) {
        if (state.status === "running" || state.status === "waiting") {
          next[nodeId] = { ...state, status: closed };
          changed = true;
        }
      }
      return changed ? next : states;
    }
    default:
      return states;
  }
}

/** The run slice: fed by SSE events of the run started from this editor. */
export const createRunSlice: StateCreator<EditorState, [], [], RunSlice> = (set, get) => ({
  runId: null,
  runStatus: null,
  runEvents: [],
  lastSeq: 0,
  nodeRunStates: {},
  waiting: null,
  startRun(runId) {
    set({ runId, runStatus: "queued", runEvents: [], lastSeq: 0, nodeRunStates: {}, waiting: null });
  },
  applyRunEvent(event) {
    const state = get();
    if (event.runId !== state.runId || event.seq <= state.lastSeq) return;
    const update: Partial<EditorState> = {
      lastSeq: event.seq,
      runEvents: [...state.runEvents, event],
      nodeRunStates: nextNodeStates(state.nodeRunStates, event),
    };
    if (event.type === "run-start") update.runStatus = "running";
    if (event.type === "run-waiting") {
      update.runStatus = "waiting";
      update.waiting = { nodeId: event.nodeId, prompt: event.prompt, fields: event.fields };
    }
    if (event.type === "node-start" && state.waiting) {
      update.waiting = null;
      update.runStatus = "running";
    }
    if (event.type === "run-end") {
      update.runStatus = event.status;
      update.waiting = null;
    }
    set(update);
  },
  clearRun() {
    set({ runId: null, runStatus: null, runEvents: [], lastSeq: 0, nodeRunStates: {}, waiting: null });
  },
});
