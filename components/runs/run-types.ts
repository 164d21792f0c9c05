import type { RunEvent } from "@/lib/engine/run-events";

/** A run as `GET /api/runs/:runId` returns it. */
export interface RunView {
  /** Run id. */
  id: string;
  /** Run status. */
  status: string;
  /** Run inputs. */
  inputs: Record<string, unknown>;
  /** Run outputs. */
  outputs: Record<string, unknown> | null;
  /** Stable error code when failed. */
  errorCode: string | null;
  /** Error message when failed. */
  errorMessage: string | null;
  /** ISO start time. */
  startedAt: string | null;
  /** ISO end time. */
  endedAt: string | null;
  /** Steps executed. */
  steps: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** Cost in USD. */
  cost: number;
  /** Whether the offline demo model answered (not a real LLM). */
  usesDemoModel: boolean;
}

/** One node attempt (per iteration item) as the API returns it, or as rebuilt from live events. */
export interface NodeRunView {
  /** Row id (or a synthetic key for live runs). */
  id: string;
  /** Node id. */
  nodeId: string;
  /** Node type. */
  nodeType: string;
  /** Node title at run time. */
  title: string;
  /** Iteration item indexes, outermost first. */
  iterationPath: number[];
  /** 1-based attempt. */
  attempt: number;
  /** Node run status. */
  status: string;
  /** Resolved inputs. */
  inputs: Record<string, unknown> | null;
  /** Prompt messages, agent steps, tool calls, HTTP request/response. */
  processData: Record<string, unknown> | null;
  /** Outputs. */
  outputs: Record<string, unknown> | null;
  /** Stable error code. */
  errorCode: string | null;
  /** Error message. */
  errorMessage: string | null;
  /** ISO start. */
  startedAt: string | null;
  /** ISO end. */
  endedAt: string | null;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** Cost in USD. */
  cost: number;
}

/** The detail endpoint's body. */
export interface RunDetail {
  /** The run. */
  run: RunView;
  /** Its node runs. */
  nodeRuns: NodeRunView[];
  /** The workflow and published version the run belongs to (version null for drafts). */
  workflow?: { id: string; name: string | null; version: number | null };
  /** What a waiting run asks (null otherwise). */
  waiting?: { nodeId: string; prompt: string; fields: unknown[]; timeoutAt: number | null } | null;
}

/** Key identifying a node run across live events and stored rows. */
export function nodeRunKey(nodeId: string, iterationPath: number[], attempt: number): string {
  return `${nodeId}|${iterationPath.join(".")}|${attempt}`;
}

/** A tool call seen live, attached to the node run that made it. */
interface LiveToolCall {
  id: string;
  name: string;
  arguments: unknown;
  ok?: boolean;
  result?: unknown;
  latencyMs?: number;
}

/**
 * Rebuilds node runs from the event stream, so the live editor and the history pages feed
 * the same timeline and inspector components.
 */
export function nodeRunsFromEvents(events: readonly RunEvent[]): NodeRunView[] {
  const runs = new Map<string, NodeRunView>();
  const toolCalls = new Map<string, LiveToolCall[]>();
  const streamed = new Map<string, string>();
  const iso = (at: number) => new Date(at).toISOString();
  for (const event of events) {
    if (!("nodeId" in event) || !("iterationPath" in event)) continue;
    const key = nodeRunKey(event.nodeId, event.iterationPath, event.attempt);
    const current = runs.get(key);
    switch (event.type) {
      case "node-start":
        runs.set(key, {
          id: key,
          nodeId: event.nodeId,
          nodeType: event.nodeType,
          title: event.title,
          iterationPath: event.iterationPath,
          attempt: event.attempt,
          status: "running",
          inputs: event.inputs,
          processData: null,
          outputs: null,
          errorCode: null,
          errorMessage: null,
          startedAt: iso(event.at),
          endedAt: null,
          tokensIn: 0,
          tokensOut: 0,
          cost: 0,
        });
        break;
      case "node-delta":
        if (event.kind === "text") streamed.set(key, (streamed.get(key) ?? "") + event.delta);
        break;
      case "tool-call": {
        const list = toolCalls.get(key) ?? [];
        list.push({ id: event.toolCallId, name: event.toolName, arguments: event.arguments });
        toolCalls.set(key, list);
        break;
      }
      case "tool-result": {
        const call = toolCalls.get(key)?.find((candidate) => candidate.id === event.toolCallId);
        if (call) Object.assign(call, { ok: event.ok, result: event.result, latencyMs: event.latencyMs });
        break;
      }
      case "node-end":
      case "node-error": {
        if (!current) break;
        const calls = toolCalls.get(key);
        const text = streamed.get(key);
        runs.set(key, {
          ...current,
          status: event.type === "node-end" ? event.status : "failed",
          outputs: event.type === "node-end" ? event.outputs : current.outputs,
          processData: {
            ...(calls ? { toolCalls: calls } : {}),
            ...(text && event.type === "node-error" ? { streamedText: text } : {}),
            ...(event.processData ?? {}),
          },
          errorCode: event.type === "node-error" ? event.error.code : null,
          errorMessage: event.type === "node-error" ? event.error.message : null,
          endedAt: iso(event.at),
          tokensIn: event.usage?.inputTokens ?? 0,
          tokensOut: event.usage?.outputTokens ?? 0,
          cost: event.usage?.cost ?? 0,
        });
        break;
      }
      default:
        break;
    }
  }
  // Running nodes show what streamed so far.
  for (const [key, run] of runs) {
    if (run.status === "running" && (toolCalls.has(key) || streamed.has(key))) {
      runs.set(key, {
        ...run,
        processData: { toolCalls: toolCalls.get(key) ?? [], streamedText: streamed.get(key) ?? "" },
      });
    }
  }
  return [...runs.values()];
}
