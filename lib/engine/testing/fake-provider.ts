import { type FakeOpenAIServer, startFakeOpenAIServer } from "../../llm/fake-server";
import type { LanguageModel, ModelProfile, ModelRef, ModelResolver } from "../../llm/language-model";
import { createOpenAICompatibleModel, type OpenAICompatibleModelOptions } from "../../llm/openai/openai-language-model";
import type { RunEvent } from "../../runs/run-events";
import type { CompiledWorkflow } from "../../workflow/compiled";
import type { EngineServices } from "../executor";
import { MemoryRunRecorder } from "../memory-recorder";
import { type RunResult, type RunWorkflowOptions, runWorkflow } from "../run-workflow";

/**
 * The project's fake OpenAI-compatible server behind a resolver: model references with provider
 * `fake` become real SDK-backed models talking HTTP to it. Reusable by engine, service and
 * published-endpoint tests (script replies with `server.script(...)`, see fake-server/scenarios).
 */
export interface FakeProviderHarness {
  /** The fake server. */
  server: FakeOpenAIServer;
  /** A resolver for `{ provider: "fake", model }` (and `fake-<name>` for per-provider settings). */
  resolver: ModelResolver;
  /** A model over the real openai adapter, with adapter options overridden. */
  model(modelId?: string, options?: Partial<OpenAICompatibleModelOptions>): LanguageModel;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Options of `startFakeProvider`. */
export interface FakeProviderOptions {
  /** API key sent to the fake server (echoed back by `error.echoApiKey`). Default `test-key`. */
  apiKey?: string;
  /** Adapter options for every resolved model (retry, timeouts, profile...). */
  adapter?: Partial<OpenAICompatibleModelOptions>;
  /** Profile overrides for every resolved model. */
  profile?: Partial<ModelProfile>;
}

/** Starts the fake server and a resolver pointed at it; one per test file, `server.reset()` between tests. */
export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProviderHarness> {
  const server = await startFakeOpenAIServer();
  const model = (modelId = "gpt-4o-mini", overrides: Partial<OpenAICompatibleModelOptions> = {}) =>
    createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: options.apiKey ?? "test-key",
      model: modelId,
      provider: "fake",
      retry: { maxAttempts: 1 },
      ...options.adapter,
      ...(options.profile ? { profile: options.profile } : {}),
      ...overrides,
    });
  const resolver: ModelResolver = {
    resolve: async (ref: ModelRef) => {
      if (ref.provider !== "fake") throw new Error(`provider ${ref.provider} is not configured`);
      return model(ref.model);
    },
  };
  return { server, resolver, model, close: () => server.close() };
}

/** A run's result with everything it recorded. */
export interface RecordedRun {
  /** What `runWorkflow` resolved with. */
  result: RunResult;
  /** The in-memory recorder (events, node runs, checkpoints). */
  recorder: MemoryRunRecorder;
  /** Every event listeners saw (what SSE clients get). */
  emitted: RunEvent[];
}

/** Runs a workflow into a fresh `MemoryRunRecorder`, collecting the emitted events too. */
export async function runRecorded(
  workflow: CompiledWorkflow,
  inputs: Record<string, unknown>,
  services: EngineServices,
  options: Partial<RunWorkflowOptions> = {},
): Promise<RecordedRun> {
  const recorder = (options.recorder as MemoryRunRecorder | undefined) ?? new MemoryRunRecorder();
  const emitted: RunEvent[] = [];
  const result = await runWorkflow(workflow, inputs, {
    runId: options.runId ?? `run-${Math.random().toString(36).slice(2)}`,
    ...options,
    recorder,
    services,
    onEvent: (event) => {
      emitted.push(event);
      options.onEvent?.(event);
    },
  });
  return { result, recorder, emitted };
}

/** Events of one type. */
export function eventsOfType<T extends RunEvent["type"]>(
  events: readonly RunEvent[],
  type: T,
): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}
