import "server-only";
import { listHttpCredentials, resolveHttpCredential } from "../db/http-credential-repository";
import { listProviderNames, loadProvider } from "../db/provider-repository";
import { listResolvedToolSources } from "../db/tool-source-repository";
import { workspaceVariableValues } from "../db/workspace-variable-repository";
import type { EngineServices } from "../engine/executor";
import { createDemoModel } from "../llm/demo";
import type { LanguageModel, ModelResolver } from "../llm/language-model";
import { createModelResolver } from "../llm/model-resolver";
import { applyToolFixture, type ToolFixture } from "../tools/tool-fixture";
import { registerLogSecrets } from "./log-redaction";
import { createLazyWorkspaceTools, type WorkspaceToolsOptions } from "./workspace-tools";

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
  const resolver = createModelResolver({
    createDemoModel,
    loadProvider: async (name) => loadProvider(options.workspaceId, name),
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
    env: await runEnvironment(options.workspaceId),
    httpAuth: (name) => resolveHttpCredential(options.workspaceId, name),
    secrets: await workspaceSecrets(options.workspaceId),
  };
}

/**
 * Every stored secret value of a workspace, for the run's redactor: provider API keys and header
 * values, HTTP credential secrets, OpenAPI tokens, MCP environment and header values, and the
 * default provider's key from the environment. A secret that cannot be read is skipped (the run
 * would fail on it anyway); the list never leaves the server.
 */
export async function workspaceSecrets(
  workspaceId: string,
  environment: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  const secrets: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.trim() !== "") secrets.push(value);
  };
  add(environment.OPENAI_API_KEY);
  const providers = await listProviderNames(workspaceId).catch(() => [] as string[]);
  for (const name of providers) {
    const provider = await loadProvider(workspaceId, name).catch(() => null);
    add(provider?.apiKey);
    for (const value of Object.values(provider?.headers ?? {})) add(value);
  }
  const credentials = await listHttpCredentials(workspaceId).catch(() => []);
  for (const credential of credentials) {
    const auth = await resolveHttpCredential(workspaceId, credential.name).catch(() => undefined);
    add(auth?.secret);
    // HTTP Basic travels base64-encoded: an upstream echoing the header echoes that form.
    if (auth?.type === "basic") add(Buffer.from(`${auth.username ?? ""}:${auth.secret}`).toString("base64"));
  }
  const sources = await listResolvedToolSources(workspaceId).catch(() => []);
  for (const source of sources) {
    add(source.secrets.token);
    for (const value of Object.values(source.secrets.env ?? {})) add(value);
    for (const value of Object.values(source.secrets.headers ?? {})) add(value);
  }
  // What a run must not record, the server log must not print either.
  registerLogSecrets(secrets);
  return secrets;
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
  return { ...templateEnvironment(environment), ...(await workspaceVariableValues(workspaceId)) };
}

/**
 * `{{env.NAME}}` exposes only variables prefixed TRELLIS_PUBLIC_, never the whole process
 * environment: a workflow author must not be able to read secrets such as OPENAI_API_KEY.
 */
export function templateEnvironment(
  environment: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (name.startsWith("TRELLIS_PUBLIC_") && value !== undefined) result[name.slice("TRELLIS_PUBLIC_".length)] = value;
  }
  return result;
}
