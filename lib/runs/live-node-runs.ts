import { nodeRunId, reduceNodeRuns } from "./node-run-reducer";
import { type NodeRunView, toNodeRunView } from "./node-run-view";
import type { RunEvent } from "./run-events";

/** A tool call seen live, attached to the node run that made it. */
export interface LiveToolCall {
  /** Tool call id. */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments as sent. */
  arguments: unknown;
  /** Set once the result arrived. */
  ok?: boolean;
  /** The result, once it arrived. */
  result?: unknown;
  /** Latency, once the result arrived. */
  latencyMs?: number;
}

/**
 * The live run panel's rows: exactly the stored rows (`reduceNodeRuns`), so a finished run looks
 * the same before and after its stored detail loads. Only an attempt that is still running shows
 * what streamed so far (`streamedText`, `toolCalls`) in place of its not yet reported
 * processData; that overlay is never stored and disappears when the attempt ends.
 */
export function liveNodeRunViews(events: readonly RunEvent[]): NodeRunView[] {
  const rows = reduceNodeRuns(events);
  const streamed = new Map<string, string>();
  const toolCalls = new Map<string, LiveToolCall[]>();
  for (const event of events) {
    if (
      event.type !== "node-start" &&
      event.type !== "node-delta" &&
      event.type !== "tool-call" &&
      event.type !== "tool-result"
    ) {
      continue;
    }
    const id = nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt);
    if (event.type === "node-start") {
      // A reopened attempt (continuing after a human answer) streams afresh.
      streamed.delete(id);
      toolCalls.delete(id);
    } else if (event.type === "node-delta") {
      if (event.kind === "text") streamed.set(id, (streamed.get(id) ?? "") + event.delta);
    } else if (event.type === "tool-call") {
      const list = toolCalls.get(id) ?? [];
      list.push({ id: event.toolCallId, name: event.toolName, arguments: event.arguments });
      toolCalls.set(id, list);
    } else {
      const call = toolCalls.get(id)?.find((candidate) => candidate.id === event.toolCallId);
      if (call) Object.assign(call, { ok: event.ok, result: event.result, latencyMs: event.latencyMs });
    }
  }
  return rows.map((row) => {
    const view = toNodeRunView(row);
    if (row.status === "running" && (streamed.has(row.id) || toolCalls.has(row.id))) {
      view.processData = { toolCalls: toolCalls.get(row.id) ?? [], streamedText: streamed.get(row.id) ?? "" };
    }
    return view;
  });
}
