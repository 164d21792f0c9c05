import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RunService } from "../services/run-service";
import { testDocument, testEdge, testNode } from "../workflow/testing/build-document";
import { genAiProviderName } from "./genai-attributes";
import { type AgentRunFixture, agentFlow, calculatorReplies, createAgentRunFixture } from "./testing/agent-run-fixture";
import { createRunTracing, otlpTracesUrl, tracingFromEnvironment } from "./tracing";

/** An OTLP/HTTP receiver on loopback: keeps every JSON export request it gets on /v1/traces. */
async function startOtlpReceiver(): Promise<{ url: string; requests: OtlpExport[]; server: Server }> {
  const requests: OtlpExport[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === "POST" && request.url === "/v1/traces") {
      expect(request.headers["content-type"]).toMatch(/application\/json/);
      requests.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport);
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
      return;
    }
    response.writeHead(404);
    response.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests, server };
}

/** The parts of an OTLP/JSON export request the tests read. */
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  status?: { code?: number };
}

function otlpAttribute(attributes: OtlpAttribute[], key: string): unknown {
  const value = attributes.find((attribute) => attribute.key === key)?.value;
  if (!value) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("OpenTelemetry traces of real runs", () => {
  let fixture: AgentRunFixture;

  beforeAll(async () => {
    fixture = await createAgentRunFixture();
  });
  beforeEach(() => fixture.server.reset());
  afterAll(async () => fixture?.dispose());

  async function runWith(service: RunService, question: string): Promise<void> {
    const { workspaceId, workflowId } = fixture;
    const { done } = await service.start({
      workspaceId,
      workflowId,
      document: agentFlow,
      inputs: { question },
      trigger: "editor",
    });
    await done;
  }

  it("makes run → node → model call and tool spans with GenAI attributes (in-memory exporter)", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createRunTracing({ exporter, exportEachSpan: true, serviceName: "trellis-test" });
    fixture.server.script(...calculatorReplies());
    await runWith(new RunService({ observers: [tracing.observer] }), "What is 2+2?");
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();

    const [run] = byName(spans, "invoke_workflow");
    expect(run).toBeDefined();
    expect(parentOf(run!)).toBeUndefined();
    expect(run!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_workflow",
      "trellis.run.status": "succeeded",
      "trellis.run.trigger": "editor",
      "trellis.workflow.id": fixture.workflowId,
      "gen_ai.usage.input_tokens": 80,
      "gen_ai.usage.output_tokens": 11,
    });
    expect(run!.status.code).toBe(SpanStatusCode.UNSET);
    expect(run!.resource.attributes["service.name"]).toBe("trellis-test");

    const [agent] = byName(spans, "invoke_agent Work");
    expect(parentOf(agent!)).toBe(run!.spanContext().spanId);
    expect(agent!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "Work",
      "trellis.node.type": "agent",
      "trellis.node.status": "succeeded",
    });
    for (const name of ["node start", "node end"]) {
      expect(parentOf(byName(spans, name)[0]!)).toBe(run!.spanContext().spanId);
    }

    const chats = byName(spans, "chat gpt-4o-mini");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(parentOf(chat)).toBe(agent!.spanContext().spanId);
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini",
        "trellis.model.provider": "fake",
      });
    }
    expect(chats.map((chat) => chat.attributes["gen_ai.usage.input_tokens"]).sort()).toEqual([30, 50]);
    expect(chats.map((chat) => chat.attributes["gen_ai.usage.output_tokens"]).sort()).toEqual([5, 6]);
    // A model call lies within its node's span.
    const startMs = (span: ReadableSpan) => span.startTime[0] * 1000 + span.startTime[1] / 1e6;
    for (const chat of chats) expect(startMs(chat)).toBeGreaterThanOrEqual(startMs(agent!) - 1);

    const [tool] = byName(spans, "execute_tool calculator");
    expect(parentOf(tool!)).toBe(agent!.spanContext().spanId);
    expect(tool!.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "calculator",
    });

    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    await tracing.shutdown();
  });

  it("nests the spans of nodes inside an iteration under that iteration's span, per item", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createRunTracing({ exporter, exportEachSpan: true });
    const document = testDocument(
      [
        testNode("start", "start", { inputs: [{ name: "items", type: "array", required: true }] }),
        testNode("loop", "iteration", { input: ["start", "items"], parallel: true, outputSelector: ["each", "text"] }),
        testNode("each", "template", { template: "item {{item}}" }, { parentId: "loop" }),
        testNode("end", "end", { outputs: [{ name: "texts", value: "{{loop.output}}" }] }),
      ],
      [testEdge("start", "loop"), testEdge("loop", "end")],
    );
    const service = new RunService({
      observers: [tracing.observer],
    });
    const { done } = await service.start({
      workspaceId: fixture.workspaceId,
      workflowId: fixture.workflowId,
      document,
      inputs: { items: ["a", "b", "c"] },
      trigger: "editor",
    });
    await done;
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const [run] = byName(spans, "invoke_workflow");
    const [loop] = byName(spans, "node iteration");
    const children = byName(spans, "node template");
    expect(parentOf(loop!)).toBe(run!.spanContext().spanId);
    expect(children).toHaveLength(3);
    for (const child of children) expect(parentOf(child)).toBe(loop!.spanContext().spanId);
    expect(parentOf(byName(spans, "node end")[0]!)).toBe(run!.spanContext().spanId);
    await tracing.shutdown();
  });

  it("marks a failed run, its node and its model call with the error status and error.type", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createRunTracing({ exporter, exportEachSpan: true });
    fixture.server.script({ error: { status: 400 } });
    await runWith(new RunService({ observers: [tracing.observer] }), "Fail");
    const spans = exporter.getFinishedSpans();
    const [run] = byName(spans, "invoke_workflow");
    const [agent] = byName(spans, "invoke_agent Work");
    const [chat] = byName(spans, "chat gpt-4o-mini");
    expect(run!.status.code).toBe(SpanStatusCode.ERROR);
    expect(run!.attributes["trellis.run.status"]).toBe("failed");
    expect(run!.attributes["error.type"]).toBeTruthy();
    expect(agent!.status.code).toBe(SpanStatusCode.ERROR);
    expect(agent!.attributes["error.type"]).toBeTruthy();
    expect(chat!.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat!.attributes["error.type"]).toMatch(/^model_/);
    expect(byName(spans, "node end")).toHaveLength(0);
    await tracing.shutdown();
  });

  it("exports over OTLP/HTTP to the endpoint OTEL_EXPORTER_OTLP_ENDPOINT names (in-process receiver)", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const environment = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "trellis-otlp" };
      expect(otlpTracesUrl(environment)).toBe(`${receiver.url}/v1/traces`);
      const tracing = tracingFromEnvironment(environment);
      expect(tracing).toBeDefined();
      fixture.server.script(...calculatorReplies());
      await runWith(new RunService({ observers: [tracing!.observer] }), "What is 2+2?");
      await tracing!.forceFlush();
      const resourceSpans = receiver.requests.flatMap((request) => request.resourceSpans);
      expect(resourceSpans.length).toBeGreaterThan(0);
      expect(otlpAttribute(resourceSpans[0]!.resource.attributes, "service.name")).toBe("trellis-otlp");
      const spans = resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
      const run = spans.find((span) => span.name === "invoke_workflow")!;
      const agent = spans.find((span) => span.name === "invoke_agent Work")!;
      const chats = spans.filter((span) => span.name === "chat gpt-4o-mini");
      expect(run.parentSpanId ?? "").toBe("");
      expect(agent.parentSpanId).toBe(run.spanId);
      expect(chats).toHaveLength(2);
      for (const chat of chats) {
        expect(chat.parentSpanId).toBe(agent.spanId);
        expect(chat.traceId).toBe(run.traceId);
        expect(otlpAttribute(chat.attributes, "gen_ai.request.model")).toBe("gpt-4o-mini");
        expect(otlpAttribute(chat.attributes, "gen_ai.provider.name")).toBe("openai");
      }
      expect(chats.map((chat) => otlpAttribute(chat.attributes, "gen_ai.usage.input_tokens")).sort()).toEqual([30, 50]);
      await tracing!.shutdown();
    } finally {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  });

  it("names the offline demo model's provider apart from the OpenAI-compatible API", () => {
    expect(genAiProviderName("demo")).toBe("trellis.demo");
    expect(genAiProviderName("My Azure")).toBe("openai");
  });

  it("is off without an endpoint, or with OTEL_SDK_DISABLED=true", () => {
    expect(tracingFromEnvironment({})).toBeUndefined();
    expect(
      tracingFromEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/custom" })).toBe(
      "http://127.0.0.1:4318/custom",
    );
  });
});
