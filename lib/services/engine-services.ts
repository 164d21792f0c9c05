import "server-only";
import { resolveHttpCredential } from "../db/http-credential-repository";
import { loadProvider } from "../db/provider-repository";
import type { EngineServices } from "../engine/executor";
import { createDemoModel } from "../llm/demo";
import type { LanguageModel, ModelResolver } from "../llm/language-model";
import { createModelResolver } from "../llm/model-resolver";
import { applyToolFixture, type ToolFixture } from "../tools/tool-fixture";
import { snapshotSecrets, workspaceSecrets, workspaceSecretsSnapshot } from "./workspace-secrets";
import { createLazyWorkspaceTools, type WorkspaceToolsOptions } from "./workspace-tools";

export { workspaceSecrets };

/** Options for one run's services. */
export interface EngineServicesOptions {
  /** Workspace whose stored providers and tools the run may use. */
  workspaceId: string;
  /** Called once when the run resolves the demo model, so the run record can say so. */
  onDemoModelUsed?: () => void;
  /** How workspace tool sources are reached (tests: allowlist, timeouts). */
  tools?: WorkspaceToolsOptions;
  /** Faults and forced arguments for this run's tools (an evaluation case's fixture). */
  toolFixture?: ToolFixture;
}

/** Wraps a resolver to notice demo-model use (records and UI must label demo answers). */
function noticingDemo(resolver: ModelResolver, onDemo: (() => void) | undefined): ModelResolver {
  let noticed = false;
  return {
    async resolve(ref): Promise<LanguageModel> {
      const model = await resolver.resolve(ref);
      if (model.isDemo && !noticed) {
        noticed = true;
        onDemo?.();
      }
      return model;
    },
  };
}

/**
 * Models, tools, allowed env values, the workspace's HTTP credentials and its secret values (for
 * the run's redactor) for one run. Tools are the built-ins at once; the workspace's OpenAPI
 * imports and MCP servers (connections shared across runs) are resolved per node, lazily, so a
 * broken or colliding source fails only the nodes that use it (`tool_source_unavailable`,
 * `tool_name_collision`) and runs without such tools never touch the sources.
 */
export async function createEngineServices(options: EngineServicesOptions): Promise<EngineServices> {
  // One cached snapshot of the workspace's secrets, variables and providers (lib/services/workspace-secrets).
  const snapshot = await workspaceSecretsSnapshot(options.workspaceId);
  // A resolver per run is cheap: the OpenAI client a model sends with is shared by every run with
  // the same provider settings (lib/llm/openai/client-cache), which is what building one per run
  // cost; the resolver itself and its model objects are a few microseconds.
  const resolver = createModelResolver({
    createDemoModel,
    loadProvider: async (name) => snapshot.providers.get(name) ?? loadProvider(options.workspaceId, name),
  });
  const tools = createLazyWorkspaceTools(options.workspaceId, options.tools);
  const fixture = options.toolFixture;
  // One wrapper per tool for the whole run, so a fault's attempt counts across nodes.
  const wrapped = new Map();
  return {
    models: noticingDemo(resolver, options.onDemoModelUsed),
    tools: fixture ? applyToolFixture(tools.tools, fixture, wrapped) : tools.tools,
    resolveTools: fixture
      ? async (names) => applyToolFixture(await tools.resolveTools(names), fixture, wrapped)
      : tools.resolveTools,
    env: { ...templateEnvironment(), ...snapshot.variables },
    httpAuth: (name) => resolveHttpCredential(options.workspaceId, name),
    secrets: snapshotSecrets(snapshot),
  };
}

/**
 * A run's `{{env.*}}`: the server's public variables, overridden by the workspace's own (the
 * workspace's setting is the more specific one). A database failure fails the run's start, not
 * silently an empty value.
 */
export async function runEnvironment(
  workspaceId: string,
  environment: Record<string, string | undefined> = process.env,
): Promise<Record<string, string>> {
  return { ...templateEnvironment(environment), ...(await workspaceSecretsSnapshot(workspaceId)).variables };
}

/**
 * `{{env.NAME}}` exposes only variables prefixed TRELLIS_PUBLIC_, never the whole process
 * environment: a workflow author must not be able to read secrets such as OPENAI_API_KEY.
 */
export function templateEnvironment(
  environment: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const result: Record<string, string> = {};
  // Names first, values only for the matches: reading a value of process.env is a call into the
  // runtime, and a run asked for every one of them.
  for (const name of Object.keys(environment)) {
    if (!name.startsWith("TRELLIS_PUBLIC_")) continue;
    const value = environment[name];
    if (value !== undefined) result[name.slice("TRELLIS_PUBLIC_".length)] = value;
  }
  return result;
}
