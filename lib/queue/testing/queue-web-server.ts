/**
 * A minimal queue-mode "web process" for the integration tests and the benchmark: an HTTP server
 * on 127.0.0.1 that calls the same services and SSE helper the Next.js routes call, as the
 * workspace owner (WORKSPACE_ID, USER_ID). Prints `listening <port>` once it accepts requests.
 *   POST /runs {workflowId, inputs}          → startEditorRun     → {runId}
 *   POST /published/:slug {inputs, textDeltas} → startPublishedRun → {runId}
 *   GET  /runs/:id/events (Last-Event-ID)    → openRunEvents + runEventStream (SSE)
 *   POST /runs/:id/cancel                    → cancelRun
 *   POST /runs/:id/resume {nodeId, answer}   → resumeRun
 *   POST /evaluations {workflowId, cases, trials, concurrency} → startEvaluation → {evaluationId}
 *   POST /evaluations/:id/cancel             → cancelEvaluation
 * It sweeps evaluations whose process died, as startServerServices does in a real web process.
 * Errors answer as the routes do (`mapError`: 422, 503 queue_unavailable, …).
 */
import http from "node:http";
import { mapError } from "../../http/respond";
import { runEventStream } from "../../http/sse";
import type { Principal } from "../../services/access/principal";
import { startEvaluationSweep } from "../../services/evaluation-lease";
import { cancelEvaluation, startEvaluation } from "../../services/evaluation-runner";
import { cancelRun, openRunEvents, resumeRun, startEditorRun, startPublishedRun } from "../../services/runs";

const principal: Principal = {
  kind: "user",
  userId: process.env.USER_ID ?? "",
  workspaceId: process.env.WORKSPACE_ID ?? "",
  role: "owner",
};

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function handle(request: http.IncomingMessage, signal: AbortSignal): Promise<Response> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const parts = url.pathname.split("/").filter(Boolean);
  try {
    if (request.method === "POST" && url.pathname === "/runs") {
      const body = await readJson(request);
      const started = await startEditorRun(principal, String(body.workflowId), {
        inputs: (body.inputs ?? {}) as Record<string, unknown>,
      });
      return Response.json({ runId: started.runId });
    }
    if (request.method === "POST" && parts[0] === "published" && parts[1] && parts.length === 2) {
      const body = await readJson(request);
      const started = await startPublishedRun(principal, parts[1], {
        inputs: (body.inputs ?? {}) as Record<string, unknown>,
        ...(typeof body.textDeltas === "boolean" ? { textDeltas: body.textDeltas } : {}),
      });
      return Response.json({ runId: started.runId });
    }
    if (request.method === "POST" && url.pathname === "/evaluations") {
      const body = await readJson(request);
      const started = await startEvaluation(principal, {
        workflowId: String(body.workflowId),
        cases: body.cases,
        datasetName: "Queue cases",
        trials: Number(body.trials ?? 1),
        concurrency: Number(body.concurrency ?? 1),
      });
      return Response.json({ evaluationId: started.evaluationId });
    }
    if (request.method === "POST" && parts[0] === "evaluations" && parts[1] && parts[2] === "cancel") {
      return Response.json(await cancelEvaluation(principal, parts[1]));
    }
    if (parts[0] === "runs" && parts[1]) {
      const runId = parts[1];
      if (request.method === "GET" && parts[2] === "events") {
        const source = await openRunEvents(principal, runId);
        const after = Number(request.headers["last-event-id"] ?? url.searchParams.get("after") ?? 0) || 0;
        return runEventStream(source, runId, after, signal);
      }
      if (request.method === "POST" && parts[2] === "cancel") {
        await cancelRun(principal, runId);
        return Response.json({ ok: true });
      }
      if (request.method === "POST" && parts[2] === "resume") {
        const body = await readJson(request);
        await resumeRun(principal, runId, String(body.nodeId), (body.answer ?? {}) as Record<string, unknown>);
        return Response.json({ ok: true }, { status: 202 });
      }
    }
    return Response.json({ error: { code: "not_found" } }, { status: 404 });
  } catch (error) {
    return mapError(error);
  }
}

const server = http.createServer((request, response) => {
  const controller = new AbortController();
  response.on("close", () => controller.abort());
  void handle(request, controller.signal).then(async (answer) => {
    response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    if (!answer.body) return response.end();
    const reader = answer.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        response.write(value);
      }
    } catch {
      // The client went away.
    }
    response.end();
  });
});
startEvaluationSweep();
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : ""}`);
});
