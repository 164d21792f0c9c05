import "server-only";
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";
import { type NodeRunRecord, nodeRunId } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import { GEN_AI, GEN_AI_OPERATION, genAiProviderName } from "./genai-attributes";
import { modelCallsOf, NodeRunTracker } from "./node-run-tracker";
import type { RunEventObserver, RunObservationContext } from "./run-observer";

interface RunTrace {
  span: Span;
  context: Context;
  /** Open node spans by node-run id. */
  nodes: Map<string, { span: Span; context: Context }>;
  /** The latest open span of each node at each iteration path (`nodeId@path`), so children find their container. */
  containers: Map<string, { span: Span; context: Context }>;
}

const containerKey = (nodeId: string, iterationPath: readonly number[]) => `${nodeId}@${iterationPath.join(".")}`;

/**
 * Turns the run event stream into spans: one per run (from run-start to run-end or run-waiting),
 * one per node attempt under it, and one per model call and tool call under the node. Model
 * calls come from the attempt's `processData.modelCalls` when it closes, with the times the
 * call recorded, so the model layer needs no tracing code. Failures get the error status and
 * `error.type` (the stable code); a cancel is not an error.
 */
export function createRunTraceObserver(tracer: Tracer): RunEventObserver {
  const runs = new Map<string, RunTrace>();

  const runTrace = (runId: string, at: number): RunTrace => {
    let state = runs.get(runId);
    if (!state) {
      // Node events without a run-start seen here: a span for what this process sees.
      state = startRun(tracer, runId, at, { "trellis.run.id": runId });
      runs.set(runId, state);
    }
    return state;
  };

  // The node-start being applied names its container; `opened` runs inside that apply.
  let startingParent: string | undefined;
  const parentContext = (run: RunTrace, iterationPath: readonly number[]): Context => {
    if (!startingParent) return run.context;
    // A child's path is its container's path plus the item index.
    return run.containers.get(containerKey(startingParent, iterationPath.slice(0, -1)))?.context ?? run.context;
  };

  const nodes = new NodeRunTracker({
    opened(row) {
      const run = runTrace(row.runId, row.startedAt);
      const parent = parentContext(run, row.iterationPath);
      const span = tracer.startSpan(
        nodeSpanName(row),
        { kind: SpanKind.INTERNAL, startTime: new Date(row.startedAt), attributes: nodeAttributes(row) },
        parent,
      );
      const node = { span, context: trace.setSpan(parent, span) };
      run.nodes.set(row.id, node);
      run.containers.set(containerKey(row.nodeId, row.iterationPath), node);
    },
    waiting(row) {
      const run = runs.get(row.runId);
      const node = run?.nodes.get(row.id);
      if (!run || !node) return;
      node.span.setAttribute("trellis.node.status", "waiting");
      node.span.end();
      run.nodes.delete(row.id);
      forgetContainer(run, row, node);
    },
    closed(row, seenStart) {
      if (row.status === "skipped") return;
      const run = runTrace(row.runId, row.startedAt);
      let node = run.nodes.get(row.id);
      if (!node) {
        // The start happened in another process (a resume): the span covers what is known.
        const span = tracer.startSpan(
          nodeSpanName(row),
          { kind: SpanKind.INTERNAL, startTime: new Date(row.startedAt), attributes: nodeAttributes(row) },
          run.context,
        );
        span.setAttribute("trellis.node.start_seen", seenStart);
        node = { span, context: trace.setSpan(run.context, span) };
      }
      for (const call of modelCallsOf(row)) {
        const span = tracer.startSpan(
          `${GEN_AI_OPERATION.chat} ${call.modelId}`,
          {
            kind: SpanKind.CLIENT,
            startTime: new Date(call.startedAt),
            attributes: {
              [GEN_AI.operationName]: GEN_AI_OPERATION.chat,
              [GEN_AI.providerName]: genAiProviderName(call.provider),
              [GEN_AI.system]: genAiProviderName(call.provider),
              [GEN_AI.requestModel]: call.modelId,
              [GEN_AI.responseModel]: call.servedModelId ?? call.modelId,
              [GEN_AI.requestStream]: call.mode === "stream",
              [GEN_AI.usageInputTokens]: call.inputTokens,
              [GEN_AI.usageOutputTokens]: call.outputTokens,
              ...(call.cachedInputTokens > 0 ? { [GEN_AI.usageCacheReadInputTokens]: call.cachedInputTokens } : {}),
              "trellis.model.provider": call.provider,
              "trellis.model.attempts": Array.isArray(call.attempts) ? call.attempts.length : 1,
              "trellis.model.cost_usd": call.cost,
              "trellis.model.usage_estimated": call.estimated,
            },
          },
          node.context,
        );
        if (call.status === "failed") {
          span.setAttribute(ATTR_ERROR_TYPE, call.errorCode ?? "model_call_failed");
          span.setStatus({ code: SpanStatusCode.ERROR, message: call.errorCode ?? "model_call_failed" });
        }
        span.end(new Date(call.startedAt + Math.max(0, call.latencyMs)));
      }
      node.span.setAttributes({
        "trellis.node.status": row.status,
        [GEN_AI.usageInputTokens]: row.tokensIn,
        [GEN_AI.usageOutputTokens]: row.tokensOut,
        "trellis.node.cost_usd": row.cost,
      });
      if (row.errorCode) node.span.setAttribute("trellis.error.code", row.errorCode);
      if (row.status === "failed") {
        node.span.setAttribute(ATTR_ERROR_TYPE, row.errorCode ?? "node_failed");
        node.span.setStatus({ code: SpanStatusCode.ERROR, message: row.errorMessage ?? row.errorCode ?? undefined });
      }
      node.span.end(new Date(row.endedAt ?? row.startedAt));
      run.nodes.delete(row.id);
      forgetContainer(run, row, node);
    },
  });

  return {
    onEvent(event: RunEvent, context: RunObservationContext) {
      if (event.type === "run-start") {
        const previous = runs.get(event.runId);
        if (previous) endRun(previous, event.at);
        runs.set(
          event.runId,
          startRun(tracer, event.runId, event.at, {
            "trellis.run.id": event.runId,
            "trellis.run.trigger": context.trigger,
            "trellis.run.resumed": event.resumed === true,
            "trellis.workspace.id": context.workspaceId,
            ...(event.workflowId ? { "trellis.workflow.id": event.workflowId } : {}),
            ...(event.versionId ? { "trellis.workflow.version_id": event.versionId } : {}),
          }),
        );
        return;
      }
      startingParent = event.type === "node-start" ? event.parentNodeId : undefined;
      nodes.apply(event);
      startingParent = undefined;
      if (event.type === "tool-result") {
        const run = runs.get(event.runId);
        const parent =
          run?.nodes.get(nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt))?.context ??
          run?.context;
        if (!parent) return;
        const span = tracer.startSpan(
          `${GEN_AI_OPERATION.executeTool} ${event.toolName}`,
          {
            kind: SpanKind.INTERNAL,
            startTime: new Date(event.at - Math.max(0, event.latencyMs)),
            attributes: {
              [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
              [GEN_AI.toolName]: event.toolName,
              [GEN_AI.toolCallId]: event.toolCallId,
            },
          },
          parent,
        );
        if (!event.ok) {
          span.setAttribute(ATTR_ERROR_TYPE, "tool_error");
          span.setStatus({ code: SpanStatusCode.ERROR, message: "The tool call failed." });
        }
        span.end(new Date(event.at));
        return;
      }
      if (event.type === "run-waiting") {
        const run = runs.get(event.runId);
        if (!run) return;
        run.span.setAttributes({ "trellis.run.status": "waiting", "trellis.run.waiting_node": event.nodeId });
        endRun(run, event.at);
        runs.delete(event.runId);
        return;
      }
      if (event.type === "run-end") {
        const run = runs.get(event.runId);
        if (!run) return;
        run.span.setAttributes({
          "trellis.run.status": event.status,
          [GEN_AI.usageInputTokens]: event.usage.inputTokens,
          [GEN_AI.usageOutputTokens]: event.usage.outputTokens,
          "trellis.run.cost_usd": event.usage.cost,
          "trellis.run.steps": event.steps,
        });
        if (event.error) run.span.setAttribute("trellis.error.code", event.error.code);
        if (event.status === "failed") {
          run.span.setAttribute(ATTR_ERROR_TYPE, event.error?.code ?? "run_failed");
          run.span.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.message });
        }
        endRun(run, event.at);
        runs.delete(event.runId);
      }
    },
  };
}

function startRun(tracer: Tracer, runId: string, at: number, attributes: Attributes): RunTrace {
  const span = tracer.startSpan(
    GEN_AI_OPERATION.invokeWorkflow,
    {
      kind: SpanKind.INTERNAL,
      startTime: new Date(at),
      attributes: { [GEN_AI.operationName]: GEN_AI_OPERATION.invokeWorkflow, "trellis.run.id": runId, ...attributes },
    },
    ROOT_CONTEXT,
  );
  return { span, context: trace.setSpan(ROOT_CONTEXT, span), nodes: new Map(), containers: new Map() };
}

/** Ends the run span and any node span still open under it (an engine that stopped mid-node). */
function endRun(run: RunTrace, at: number): void {
  for (const node of run.nodes.values()) node.span.end(new Date(at));
  run.nodes.clear();
  run.span.end(new Date(at));
}

/** Drops a closed node's container entry unless a newer attempt of it replaced the entry. */
function forgetContainer(run: RunTrace, row: NodeRunRecord, node: { span: Span; context: Context }): void {
  const key = containerKey(row.nodeId, row.iterationPath);
  if (run.containers.get(key) === node) run.containers.delete(key);
}

function nodeSpanName(row: NodeRunRecord): string {
  if (row.nodeType === "agent") return `${GEN_AI_OPERATION.invokeAgent} ${row.title || row.nodeId}`;
  return `node ${row.nodeType || "unknown"}`;
}

function nodeAttributes(row: NodeRunRecord): Attributes {
  const attributes: Attributes = {
    "trellis.node.id": row.nodeId,
    "trellis.node.type": row.nodeType || "unknown",
    "trellis.node.title": row.title,
    "trellis.node.attempt": row.attempt,
    "trellis.node.iteration_path": row.iterationPath.join("."),
  };
  if (row.nodeType === "agent") {
    attributes[GEN_AI.operationName] = GEN_AI_OPERATION.invokeAgent;
    attributes[GEN_AI.agentName] = row.title || row.nodeId;
  }
  return attributes;
}
